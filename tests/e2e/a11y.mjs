// Accessibility in the built page, in Debian's Chromium through playwright-core.
//
//   trunk build --release --skip-version-check --dist dist-a11y
//   node tests/e2e/a11y.mjs [--dist dist]
//
// (s) The keyboard reaches every control and shows where it is: from a fresh page, Tab walks the
//     whole page (the code editor is left with Escape, then Tab, as the page says under it);
//     every control the page shows (buttons, links, fields, selects, the file input, the viewer,
//     the code editor) is reached, and each shows a focus ring: an outline at least 2 px wide
//     whose colour has a contrast of 3:1 or more against what is behind it (on the element
//     itself; for a file input hidden in its label, on the label; for the editor, in its shadow
//     root, on the editor's box). Then again after a match, when the viewer's controls are live.
//     Screenshot: tests/e2e/screenshots/a11y-focus.png.
// (t) The text view: a match is started from the keyboard; the viewer's "Text view" button
//     (pressed with the keyboard, then with "t") shows the board as the game's text (the same
//     text the canvas gives screen readers), the seats' statuses as a table with a caption and
//     headers, and the turn's events in a polite live region that screen readers read at each
//     step: stepping with the arrow keys changes it (seen by a MutationObserver, and in
//     Chromium's accessibility tree as a live region), it is quiet while playing, and the
//     choice survives a reload. Screenshot: tests/e2e/screenshots/a11y-text-view.png.
// (u) A board with controls of its own (Crafting Quest 3: fog of war, zoom, pan) takes the focus
//     in the Tab order, says which keys it answers, and answers them (the picture changes, the
//     viewer does not step or change speed), as its toolbar does for a mouse.
//
// The seat colours are checked for colour-blind viewers natively (src/painters/colour_vision.rs).
// Called from run.mjs (`a11yChecks({ dist, check, SHOTS })`) or alone.

import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, openPlayground, openSession, pickGame, runAlone } from "./browser.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));


// In the page: helpers to name elements, find the focused one (into shadow roots) and measure
// its focus ring. Installed once per document.
const PAGE_HELPERS = () => {
  const path = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && e !== document.documentElement; ) {
      const parent = e.parentNode;
      const index = parent ? [...parent.children].indexOf(e) : 0;
      parts.unshift(`${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}:${index}`);
      e = parent instanceof ShadowRoot ? parent.host : parent;
    }
    return parts.join(">");
  };
  const name = (el) => {
    const text = (el.getAttribute("aria-label") || el.innerText || el.value || "").trim().split("\n")[0].slice(0, 30);
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.dataset?.game ? `[${el.dataset.game}]` : ""}${text ? ` "${text}"` : ""}`;
  };
  const rgba = (colour) => {
    const v = (colour.match(/[\d.]+/g) ?? []).map(Number);
    return v.length >= 3 ? [v[0], v[1], v[2], v.length > 3 ? v[3] : 1] : null;
  };
  const luminance = ([r, g, b]) => {
    const c = (x) => {
      x /= 255;
      return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
  };
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  /** The colour behind an element's outline: the first opaque background around it. */
  const behind = (el) => {
    for (let e = el.parentElement ?? el.getRootNode().host; e; e = e.parentElement ?? e.getRootNode()?.host) {
      const bg = rgba(getComputedStyle(e).backgroundColor);
      if (bg && bg[3] > 0.5) return bg;
    }
    return [255, 255, 255, 1];
  };
  /** The element with the keyboard focus, inside shadow roots too, and what shows its ring. */
  const focused = () => {
    let el = document.activeElement;
    let host = null;
    while (el?.shadowRoot?.activeElement) {
      host = el;
      el = el.shadowRoot.activeElement;
    }
    if (!el || el === document.body || el === document.documentElement) return null;
    const rect = el.getBoundingClientRect();
    let ring = el;
    let how = "itself";
    if (host) {
      ring = host;
      how = "the editor's box";
    } else if ((rect.width <= 2 || rect.height <= 2) && (el.labels?.[0] ?? el.closest("label"))) {
      ring = el.labels?.[0] ?? el.closest("label");
      how = "its label";
    }
    const style = getComputedStyle(ring);
    const colour = rgba(style.outlineColor);
    const back = behind(ring);
    const shown = ring.getBoundingClientRect();
    return {
      key: path(host ?? el),
      name: name(host ?? el),
      inEditor: Boolean(host),
      how,
      outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
      ring:
        style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 && colour && colour[3] > 0.5
          ? contrast(colour, back)
          : 0,
      shadow: style.boxShadow,
      visible: shown.width > 2 && shown.height > 2,
    };
  };
  /** Every control the page shows now: what the keyboard must reach. */
  const controls = () => {
    const all = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"]), .code-editor')];
    return all
      .filter((el) => !el.disabled && !el.closest("[inert], dialog:not([open])") && el.getClientRects().length > 0)
      // Shown: not hidden, and not in a closed <details> (its summary excepted).
      .filter((el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false }))
      .filter((el) => {
        const closed = el.closest("details:not([open])");
        return !closed || (el.tagName === "SUMMARY" && el.parentElement === closed);
      })
      .filter((el) => !el.closest(".code-editor") || el.classList.contains("code-editor"))
      .map((el) => ({ key: path(el), name: name(el) }));
  };
  self.a11yTest = { focused, controls };
};

/** Tabs through the whole page once; returns the controls reached, in order. */
async function tabWalk(page, check, label) {
  await page.evaluate(PAGE_HELPERS);
  const seen = new Map();
  const order = [];
  let first = null;
  let blanks = 0;
  for (let presses = 0; presses < 400; presses++) {
    const f = await page.evaluate(() => self.a11yTest.focused());
    if (!f) {
      // Past the last control (the browser's own controls would come next): Tab comes back.
      if (++blanks > 2) break;
    } else {
      if (first === null) first = f.key;
      else if (f.key === first) break;
      if (!seen.has(f.key)) {
        seen.set(f.key, f);
        order.push(f.name);
        check(f.visible, `(${label}) ${f.name} has the focus but nothing of it is on the screen`);
        check(
          f.ring >= 3 || (f.shadow && f.shadow !== "none"),
          `(${label}) ${f.name} shows no visible focus ring on ${f.how}: outline ${f.outline} (contrast ${f.ring.toFixed(2)}:1), box-shadow ${f.shadow}`,
        );
      }
    }
    if (f?.inEditor) {
      // Tab indents in the editor; Escape, then Tab, leaves it. (A key first: an Escape of the
      // last two seconds would still let Tab out.)
      await page.keyboard.press("End");
      await page.keyboard.press("Tab");
      const still = await page.evaluate(() => self.a11yTest.focused());
      check(still?.inEditor, `(${label}) Tab in the code editor left it (it should indent)`);
      await page.keyboard.press("Escape");
    }
    await page.keyboard.press("Tab");
  }
  const reached = new Set(seen.keys());
  const missed = (await page.evaluate(() => self.a11yTest.controls())).filter((c) => !reached.has(c.key));
  check(missed.length === 0, `(${label}) the keyboard never reaches: ${missed.map((c) => c.name).join(", ")} (reached, in order: ${order.join(", ")})`);
  check(order.length >= 10, `(${label}) Tab reached only ${order.length} controls: ${order.join(", ")}`);
  return { order, seen };
}

/** A checksum of the board's pixels. */
function boardPixels(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector("#board");
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0x811c9dc5;
    for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 0x01000193) >>> 0;
    return hash.toString(16);
  });
}

/** Waits (5 s at most) until `test(arg)` holds in the page (Yew renders after a key's events
 * are dispatched); fails with `message` otherwise. */
async function until(page, check, message, test, arg) {
  const ok = await page.waitForFunction(test, arg, { timeout: 5_000 }).then(() => true, () => false);
  check(ok, message);
}

/** The viewer's turn label: [shown, last]. */
async function turn(page) {
  const label = await page.locator("#turn-label").innerText();
  const m = label.match(/turn (\d+) \/ (\d+)/);
  return m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
}

export async function a11yChecks({ dist, check = defaultCheck, SHOTS = join(REPO, "tests", "e2e", "screenshots") }) {
  const { url, context, page, problems, close } = await openSession(dist, "a11y");
  try {
    await mkdir(SHOTS, { recursive: true });

    // (s) A fresh page, from the keyboard alone.
    await openPlayground(page, url);
    await page.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
    const fresh = await tabWalk(page, check, "s, fresh page");
    for (const expected of ["#run", "#viewer", "#text-view-toggle", "#bot-code", "#open-replay"]) {
      check([...fresh.seen.values()].some((f) => f.name.includes(expected)), `(s) Tab never reached ${expected}: ${fresh.order.join(", ")}`);
    }
    await page.locator("#run").focus();
    await page.locator(".setup").screenshot({ path: join(SHOTS, "a11y-focus.png") });
    console.log(`ok (s) on a fresh page Tab reaches all ${fresh.order.length} controls, each with a focus ring of 3:1 or more`);

    // (t) A match started from the keyboard: Enter on Run (the starter bot against the default
    // built-in bot).
    const relaxed = page.locator("#relaxed");
    await relaxed.focus();
    if (!(await relaxed.isChecked())) await page.keyboard.press("Space");
    check(await relaxed.isChecked(), "(t) Space did not tick Relaxed");
    await page.locator("#run").focus();
    await page.keyboard.press("Enter");
    await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 180_000 });
    const [, last] = await turn(page);
    check(last > 4, `(t) the match has ${last} turns`);
    const after = await tabWalk(page, check, "s, after a match");
    console.log(`ok (s) after a match Tab reaches all ${after.order.length} controls, each with a focus ring`);

    // The text view, from the keyboard.
    const toggle = page.locator("#text-view-toggle");
    check((await toggle.getAttribute("aria-pressed")) === "false", "(t) the text view is on before it was asked for");
    check((await page.locator("#text-view").count()) === 0, "(t) the text view is shown before it was asked for");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await page.locator("#text-view").waitFor({ timeout: 5_000 });
    check((await toggle.getAttribute("aria-pressed")) === "true", "(t) the Text view button is not marked pressed");
    check((await toggle.getAttribute("aria-controls")) === "text-view", "(t) the Text view button does not name what it controls");

    // The board as text: the game's own text picture, as the canvas gives it to screen readers.
    const boardText = (await page.locator("#text-board").innerText()).trimEnd();
    const canvasText = ((await page.locator("#board").getAttribute("aria-label")) ?? "").trimEnd();
    check(boardText.split("\n").length >= 12 && boardText === canvasText, `(t) the text board is not the frame's text:\n${boardText.slice(0, 400)}\n---\n${canvasText.slice(0, 400)}`);
    check(/HQ/.test(boardText) && /red/.test(boardText), `(t) the text board has no legend: ${boardText.slice(-200)}`);
    check((await page.locator("#text-board").getAttribute("tabindex")) === "0", "(t) the text board cannot be scrolled from the keyboard");
    const caption = await page.locator("#text-board-caption").innerText();
    check(/^The board after turn \d+, as text/.test(caption), `(t) the text board's caption is '${caption}'`);
    check((await page.locator("#text-board").getAttribute("aria-labelledby")) === "text-board-caption", "(t) the text board is not labelled by its caption");

    // The seats as a table with a caption and headers, matching the statuses beside the board.
    const table = await page.locator("#text-state").evaluate((t) => ({
      caption: t.caption?.innerText ?? "",
      head: [...t.tHead.rows[0].cells].map((c) => [c.tagName, c.scope, c.innerText]),
      rows: [...t.tBodies[0].rows].map((r) => [r.cells[0].tagName, r.cells[0].scope, r.cells[0].innerText, r.cells[1].innerText]),
    }));
    check(/^The bots after turn \d+/.test(table.caption), `(t) the table's caption is '${table.caption}'`);
    check(JSON.stringify(table.head) === JSON.stringify([["TH", "col", "Seat"], ["TH", "col", "Status"]]), `(t) the table's header row is ${JSON.stringify(table.head)}`);
    const statuses = await page.locator("#statuses li").allInnerTexts();
    check(table.rows.length === statuses.length && table.rows.length === 2, `(t) the table has ${table.rows.length} rows for ${statuses.length} seats`);
    for (const [i, [tag, scope, seat, status]] of table.rows.entries()) {
      check(tag === "TH" && scope === "row", `(t) row ${i} has no row header`);
      check(statuses[i].includes(seat) && statuses[i].includes(status), `(t) row ${i} '${seat} | ${status}' differs from the status '${statuses[i]}'`);
    }

    // The events: a polite, atomic live region, changed by each step.
    const region = page.locator("#text-turn");
    check((await region.getAttribute("aria-live")) === "polite" && (await region.getAttribute("aria-atomic")) === "true", "(t) the turn's events are not a polite atomic live region");
    await page.evaluate(() => {
      self.a11yAnnounced = [];
      new MutationObserver(() => self.a11yAnnounced.push(document.querySelector("#text-turn").innerText)).observe(
        document.querySelector("#text-turn"),
        { subtree: true, childList: true, characterData: true },
      );
    });
    await page.locator("#viewer").focus();
    await page.keyboard.press("Home");
    await until(page, check, "(t) Home did not go to the first frame", () => document.querySelector("#turn-label").textContent.startsWith("turn 0 /"));
    let withEvents = 0;
    for (let step = 1; step <= Math.min(8, last); step++) {
      await page.keyboard.press("ArrowRight");
      await until(page, check, `(t) → did not step to turn ${step}`, (n) => document.querySelector("#turn-label").textContent.startsWith(`turn ${n} /`), step);
      const said = (await page.locator("#text-turn-label").innerText()).trim();
      check(said === `Turn ${step} of ${last}.`, `(t) at turn ${step} the live region says '${said}'`);
      const events = await page.locator("#events li").allInnerTexts();
      const spoken = await page.locator("#text-events li").allInnerTexts();
      if (events.length > 0) {
        withEvents += 1;
        // At most 20 are read out, then how many more (src/app/text_view.rs SPOKEN_EVENTS).
        const more = events.length - 20;
        const expected = more > 0 ? [...events.slice(0, 20), `… and ${more} more event${more === 1 ? "" : "s"} (all of them under Events).`] : events;
        check(JSON.stringify(spoken) === JSON.stringify(expected), `(t) at turn ${step} the text view's events ${JSON.stringify(spoken)} differ from ${JSON.stringify(expected)}`);
      } else {
        check(JSON.stringify(spoken) === JSON.stringify(["No event this turn."]), `(t) at turn ${step} the text view lists ${JSON.stringify(spoken)} for no event`);
      }
      const announced = await page.evaluate(() => self.a11yAnnounced.at(-1) ?? "");
      check(announced.includes(said), `(t) the live region did not change at turn ${step}: '${announced.slice(0, 120)}'`);
    }
    check(withEvents > 0, "(t) no turn among the first had events to announce");
    // Chromium exposes it to screen readers as a live region.
    const cdp = await context.newCDPSession(page);
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const text = (n) => [n.name?.value ?? "", ...(n.childIds ?? []).map((id) => (byId.has(id) ? text(byId.get(id)) : ""))].join(" ");
    const prop = (n, name) => (n.properties ?? []).find((p) => p.name === name)?.value?.value;
    const live = nodes.filter((n) => prop(n, "live") === "polite" && prop(n, "atomic") === true);
    const liveText = live.map((n) => text(n).replace(/\s+/g, " ").trim()).join(" | ");
    const turnLine = (await page.locator("#text-turn-label").innerText()).trim();
    check(live.some((n) => text(n).includes(turnLine)), `(t) the accessibility tree has no polite atomic live region saying '${turnLine}': ${liveText.slice(0, 300)}`);
    await cdp.detach();
    // Playing: quiet (a screen reader would be flooded), then polite again.
    await page.locator("#step-back").click();
    await page.locator("#viewer").focus();
    await page.keyboard.press("Home");
    await page.keyboard.press(" ");
    await until(page, check, "(t) the live region speaks while the match plays", () => document.querySelector("#text-turn").getAttribute("aria-live") === "off");
    await page.keyboard.press(" ");
    await until(page, check, "(t) the live region stays quiet after pausing", () => document.querySelector("#text-turn").getAttribute("aria-live") === "polite");
    await page.keyboard.press("End");
    await page.locator("#text-view").scrollIntoViewIfNeeded();
    await page.locator("#viewer").screenshot({ path: join(SHOTS, "a11y-text-view.png") });

    // Remembered across a reload; "t" in the viewer toggles it.
    await openPlayground(page);
    check((await page.locator("#text-view-toggle").getAttribute("aria-pressed")) === "true", "(t) the text view was forgotten by a reload");
    check((await page.locator("#text-turn-label").innerText()).trim() === "No match yet.", "(t) before a match the text view does not say so");
    await page.locator("#viewer").focus();
    await page.keyboard.press("t");
    await until(page, check, "(t) 't' did not hide the text view", () => !document.querySelector("#text-view"));
    await page.keyboard.press("t");
    await until(page, check, "(t) 't' did not show the text view again", () => Boolean(document.querySelector("#text-view")));
    console.log(
      `ok (t) the text view: the board's text (${boardText.split("\n").length} lines), a table of ${table.rows.length} seats, ` +
        `each step announced by a polite live region (${withEvents} of the first steps with events); quiet while playing; remembered`,
    );

    // (u) Crafting Quest 3's board, from the keyboard, after a short match (a bot that ends
    // each turn at once against one that waits).
    await pickGame(page, "crafting-quest");
    await page.locator("#player").selectOption("javascript");
    await page.locator("#bot-code .cm-content").waitFor();
    await page.evaluate(() => botplayEditor.get("bot-code").paste('while (true) { readline(); console.log(JSON.stringify({ type: "end" })); }\n'));
    await page.locator("#opponent").selectOption("wait");
    await page.locator("#run").focus();
    await page.keyboard.press("Enter");
    await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 180_000 });
    const board = page.locator("#board");
    check((await board.getAttribute("tabindex")) === "0", "(u) Crafting Quest 3's board does not take the focus");
    const keys = await page.locator(`#${await board.getAttribute("aria-describedby")}`).innerText();
    check(/fog of war/.test(keys) && /zoom/.test(keys), `(u) the board does not say which keys it answers: '${keys}'`);
    const cq = await tabWalk(page, check, "u, Crafting Quest 3");
    check([...cq.seen.values()].some((f) => f.name.startsWith("canvas#board")), "(u) Tab never reaches Crafting Quest 3's board");
    await board.focus();
    const [atTurn] = await turn(page);
    const speed = await page.locator("#speed").inputValue();
    const everything = await boardPixels(page);
    await page.keyboard.press("1");
    const fogged = await boardPixels(page);
    check(fogged !== everything, "(u) '1' did not show seat 1's fog of war");
    await page.keyboard.press("+");
    const zoomed = await boardPixels(page);
    check(zoomed !== fogged, "(u) '+' did not zoom the board");
    await page.keyboard.press("ArrowRight");
    check((await boardPixels(page)) !== zoomed, "(u) → did not pan the board");
    // (Time for the page to render a step or a speed, had the viewer taken the keys.)
    await page.waitForTimeout(300);
    check((await turn(page))[0] === atTurn && (await page.locator("#speed").inputValue()) === speed, "(u) the board's keys also stepped the viewer or changed its speed");
    await page.keyboard.press("Home");
    await page.keyboard.press("a");
    check((await boardPixels(page)) === everything, "(u) Home and 'a' did not bring the whole map back");
    console.log(`ok (u) Crafting Quest 3's board is in the Tab order (${cq.order.length} controls) and answers its keys: fog of war, zoom, pan, fit`);

    check(problems.length === 0, `(s, t, u) errors:\n  ${problems.join("\n  ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, a11yChecks, "accessibility checks");

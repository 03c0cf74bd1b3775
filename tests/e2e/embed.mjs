// The embed view (embed.html, src/app/embed.rs) framed by a page of another origin, in Debian's
// Chromium through playwright-core.
//
//   trunk build --release --skip-version-check --dist dist
//   node tests/e2e/embed.mjs [--dist dist]
//
// The built site is served on one port of 127.0.0.1 (tests/e2e/serve.mjs, with the headers of
// `cargo xtask serve`), and a course page on another port (another origin) that frames whatever
// embed code it is given.
// (em1) In the playground, a one-click match, then *Copy embed code*: one <iframe> whose address
//       is embed.html beside the page, with the match in its fragment.
// (em2) The course page frames that code at 320 × 240, 640 × 400 and 1000 × 700: each time the
//       view says it is ready, its board is drawn (not blank), square, as large as the frame
//       leaves above the controls, and nothing overflows the frame; it fetched no worker, no bot
//       runtime and no code editor. A course page that is cross-origin isolated itself frames it
//       too. Screenshots: tests/e2e/screenshots/embed-<W>x<H>.png (and
//       embed.png in the middle of the match, embed-end.png at its end, embed-problem-*.png).
// (em3) The postMessage API: ready (game, players, turns, frames); set-turn shows that turn and
//       is told back; play, then the end told; pause stops the turns; malformed messages (not
//       objects, unknown types, bad turns, a cyclic object, a BigInt) change nothing and throw
//       nothing in the frame.
// (em4) Headers and framing: the page's response says frame-ancestors 'none' and the embed
//       view's frame-ancestors *; the course page cannot frame the playground (Chromium refuses
//       it), while it frames the embed view.
// (em5) A damaged embed address, and one without a match, show a sentence in the frame and tell
//       the course page botplay:error; no panic. So does a damaged fragment put in place of a
//       good one by the course page.
// (em6) On a host without headers, the service worker gives the page frame-ancestors 'none'
//       and the embed view its own policy.
//
// Called alone or from xtask's e2e step; the 640 × 400 screenshot is also docs/screenshots/embed.png
// when run with --docs.

import { createServer } from "node:http";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { boardColours, defaultCheck, launch, runAlone, settledWithin, withinLimit } from "./browser.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SIZES = [
  [320, 240],
  [640, 400],
  [1000, 700],
];

// A course page on another origin: a heading, a sentence, and the embed code given in its
// address (`?code=`), at the size given (`&w=&h=`). It keeps every message it hears in
// `window.heard` and sends with `window.send(message)`.
const COURSE_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Week 3: why did my bot lose?</title>
<style>
  body { font: 16px/1.5 Georgia, serif; margin: 20px 24px; background: #fdfcf8; color: #222; }
  h1 { font-size: 22px; margin: 0 0 6px; }
  p { margin: 0 0 12px; max-width: 60ch; }
  #slot iframe { display: block; box-shadow: 0 1px 4px #0003; }
</style></head>
<body>
<h1>Week 3: why did my bot lose?</h1>
<p>Step through last week's match below: watch where the red units go once they stop expanding.</p>
<div id="slot"></div>
<script>
  window.heard = [];
  const q = new URLSearchParams(location.search);
  const slot = document.getElementById("slot");
  slot.innerHTML = q.get("code") ?? "";
  const frame = slot.querySelector("iframe");
  if (frame && q.get("w")) frame.width = q.get("w");
  if (frame && q.get("h")) frame.height = q.get("h");
  addEventListener("message", (e) => {
    heard.push({ origin: e.origin, fromFrame: e.source === frame?.contentWindow, data: e.data });
  });
  window.send = (message) => frame.contentWindow.postMessage(message, "*");
</script>
</body></html>
`;

/** The course page's server, on another port of 127.0.0.1 (so another origin). */
async function courseSite() {
  const server = createServer((req, res) => {
    // `?isolated`: a course page that is cross-origin isolated itself.
    const isolated = new URL(req.url, "http://x").searchParams.has("isolated")
      ? { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" }
      : {};
    res.writeHead(200, { ...isolated, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(COURSE_PAGE);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

/** The board's colours once it is drawn (it is painted once laid out), or after 5 s. */
async function drawn(frame) {
  let colours = { common: 0 };
  for (let i = 0; i < 50 && colours.common < 6; i++) {
    colours = await frame.evaluate(boardColours);
    if (colours.common < 6) await new Promise((ok) => setTimeout(ok, 100));
  }
  return colours;
}

/** Where things are in the embed view, in its own CSS pixels. */
function layout() {
  const box = (selector) => {
    const r = document.querySelector(selector)?.getBoundingClientRect();
    return r && { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  };
  return {
    inner: [innerWidth, innerHeight],
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    board: box("#board"),
    canvas: [document.querySelector("#board")?.width, document.querySelector("#board")?.height],
    ratio: devicePixelRatio,
    play: box("#play"),
    scrub: box("#scrub"),
    label: document.querySelector("#turn-label")?.textContent ?? "",
    isolated: self.crossOriginIsolated,
    fetched: performance.getEntriesByType("resource").map((e) => e.name),
  };
}

export async function embedChecks({ dist, check = defaultCheck, SHOTS = join(REPO, "tests", "e2e", "screenshots"), docs = process.argv.includes("--docs") }) {
  await mkdir(SHOTS, { recursive: true });
  const site = await serve(dist);
  const course = await courseSite();
  const profile = await mkdtemp(join(tmpdir(), "botplay-embed-"));
  const context = await launch(profile, { viewport: { width: 1100, height: 900 } });
  const problems = [];
  const refusals = [];
  const watch = (page) => {
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (/frame-ancestors/.test(m.text())) return refusals.push(m.text());
      if (m.type() === "error" || /panicked/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    watch(page);
    const parent = await context.newPage();
    // Each check within its time limit: past it, the run fails at once, naming the check, with a
    // screenshot of the page it was on (tests/e2e/screenshots/timeout-chromium.png).
    const limit = (what, ms, checks, on = parent) => withinLimit(what, "chromium", ms, checks, (path) => on.screenshot({ path }));
    let code;

    // (em1) The embed code of a one-click match.
    await limit("(em1) the embed code", 180_000, async () => {
      await page.goto(site.url);
      await page.locator('#landing .card[data-game="ice-and-fire"] .play-now').click();
      await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      const outcome = (await page.locator("#outcome .result").innerText()).trim();
      await page.locator("#copy-embed:not([disabled])").click({ timeout: 60_000 });
      code = await page.locator("#embed-code").inputValue();
      await page.locator("#sharing").screenshot({ path: join(SHOTS, "embed-share-panel.png") });
      const src = code.match(/^<iframe src="([^"]+)" width="640" height="400" style="border: 0" title="[^"]+" loading="lazy"><\/iframe>$/)?.[1];
      check(src, `(em1) the embed code is not one iframe: ${code.slice(0, 200)}`);
      const address = src.replaceAll("&amp;", "&");
      check(address.startsWith(`${site.url}embed.html#b1.`), `(em1) the embed address is ${address.slice(0, 80)}…`);
      check(problems.length === 0, `(em1) errors in the playground:\n  ${problems.join("\n  ")}`);
      console.log(`ok (em1) Copy embed code gives one iframe of embed.html (${address.length} characters) for "${outcome}"`);
    }, page);

    // (em2) Framed by another origin at three sizes.
    watch(parent);
    const heard = () => parent.evaluate(() => window.heard.filter((m) => m.fromFrame).map((m) => m.data));
    const embedFrame = () => parent.frames().find((f) => f.url().startsWith(`${site.url}embed.html`));
    await limit("(em2) framed at three sizes", 120_000, async () => {
      for (const [w, h] of SIZES) {
        await parent.setViewportSize({ width: Math.max(w + 48, 560), height: h + 140 });
        await parent.goto(`${course.url}?${new URLSearchParams({ code, w, h })}`);
        await parent.waitForFunction(() => window.heard.some((m) => m.data?.type === "botplay:ready"), null, { timeout: 30_000 });
        const frame = embedFrame();
        check(frame, `(em2) ${w}×${h}: no frame shows the embed view`);
        const colours = await drawn(frame);
        check(colours.common >= 6, `(em2) ${w}×${h}: the board looks blank: ${JSON.stringify(colours)}`);
        const at = await frame.evaluate(layout);
        check(at.inner[0] === w && at.inner[1] === h, `(em2) the frame is ${at.inner} instead of ${w}×${h}`);
        check(at.scroll[0] <= w + 1 && at.scroll[1] <= h + 1, `(em2) ${w}×${h}: the view overflows its frame: ${at.scroll}`);
        const b = at.board;
        check(Math.abs(b.width - b.height) <= 1, `(em2) ${w}×${h}: the board is not square: ${b.width}×${b.height}`);
        check(b.left >= 0 && b.top >= 0 && b.right <= w + 0.5 && b.bottom <= h + 0.5, `(em2) ${w}×${h}: the board leaves the frame: ${JSON.stringify(b)}`);
        check(at.play.bottom <= h + 0.5 && at.scrub.bottom <= h + 0.5 && at.play.top >= b.bottom - 0.5, `(em2) ${w}×${h}: the controls are not under the board, in the frame`);
        // As large as the frame leaves: the board fills the width or the height left above the
        // controls (within the view's small margins).
        const room = Math.min(w, at.play.top - b.top);
        check(b.width >= room - 24, `(em2) ${w}×${h}: the board is ${b.width.toFixed(0)} px where ${room.toFixed(0)} px are free`);
        check(Math.abs(at.canvas[0] - Math.round(b.width * at.ratio)) <= 1, `(em2) ${w}×${h}: the canvas is drawn at ${at.canvas[0]} px for ${b.width} CSS px`);
        const unwanted = at.fetched.filter((name) => /js-bot-worker|match-host|editor\.js|pyodide|coi-sw/.test(name));
        check(unwanted.length === 0, `(em2) the embed view fetched what only bots or the editor need: ${unwanted.join(", ")}`);
        check(!at.isolated, `(em2) a framed embed view is not expected to be cross-origin isolated`);
        await parent.screenshot({ path: join(SHOTS, `embed-${w}x${h}.png`) });
        console.log(`ok (em2) framed at ${w}×${h} by another origin: board ${b.width.toFixed(0)} px square, ${colours.common} common colours, controls under it, nothing overflows, no worker fetched`);
      }
    });

    // A course page that is cross-origin isolated itself frames it too (the view's COEP and
    // CORP allow it).
    await limit("(em2) framed by an isolated page", 60_000, async () => {
      await parent.goto(`${course.url}?${new URLSearchParams({ code, w: 640, h: 400, isolated: 1 })}`);
      await parent.waitForFunction(() => window.heard.some((m) => m.data?.type === "botplay:ready"), null, { timeout: 30_000 });
      check(await parent.evaluate(() => self.crossOriginIsolated), "(em2) the isolated course page is not isolated");
      const inIsolated = await drawn(embedFrame());
      check(inIsolated.common >= 6, `(em2) in an isolated page the board looks blank: ${JSON.stringify(inIsolated)}`);
      console.log("ok (em2) a cross-origin isolated page frames it too");
    });

    // (em3) The postMessage API, at 640 × 400.
    await limit("(em3) the postMessage API", 120_000, async () => {
      await parent.setViewportSize({ width: 688, height: 540 });
      await parent.goto(`${course.url}?${new URLSearchParams({ code, w: 640, h: 400 })}`);
      await parent.waitForFunction(() => window.heard.some((m) => m.data?.type === "botplay:ready"), null, { timeout: 30_000 });
      const frame = embedFrame();
      const ready = (await heard()).find((m) => m.type === "botplay:ready");
      const origin = (await parent.evaluate(() => window.heard.find((m) => m.fromFrame)?.origin));
      check(origin === site.url.replace(/\/$/, ""), `(em3) the messages come from ${origin}`);
      check(ready.game === "ice-and-fire" && ready.players?.length === 2 && ready.turns > 4 && ready.frames > 4,
        `(em3) ready says ${JSON.stringify(ready)}`);
      const label = () => frame.locator("#turn-label").innerText();
      // Every message heard so far, and a wait for one (after the first `from`) that passes `test`.
      const count = () => parent.evaluate(() => window.heard.length);
      const waitHeard = (test, what, from = 0) =>
        parent.waitForFunction(
          ([source, n]) => window.heard.slice(n).some((m) => m.fromFrame && new Function("m", `return ${source}`)(m.data)),
          [test, from],
          { timeout: 20_000 },
        ).catch(() => { throw new Error(`(em3) the frame never told ${what}`); });

      await parent.evaluate(() => window.send({ type: "botplay:set-turn", turn: 3 }));
      await waitHeard("m.type === 'botplay:turn' && m.turn === 3 && m.playing === false", "turn 3");
      check((await label()).startsWith("turn 3 /"), `(em3) after set-turn 3 the frame shows ${await label()}`);

      // Malformed messages: ignored, and nothing thrown in the frame.
      const before = await count();
      await parent.evaluate(() => {
        const cyclic = { type: "botplay:set-turn", turn: 1 };
        cyclic.self = cyclic;
        for (const m of [null, undefined, 42, "botplay:play", [], {}, { type: "play" }, { type: "botplay:PLAY" },
          { type: 7 }, { type: "botplay:set-turn" }, { type: "botplay:set-turn", turn: -1 },
          { type: "botplay:set-turn", turn: 2.5 }, { type: "botplay:set-turn", turn: "2" },
          { type: "botplay:set-turn", turn: null }, cyclic, { type: "botplay:set-turn", turn: 5n }]) {
          window.send(m);
        }
      });
      await parent.waitForTimeout(700);
      check((await count()) === before, `(em3) malformed messages made the frame tell: ${JSON.stringify(await parent.evaluate((n) => window.heard.slice(n), before))}`);
      check((await label()).startsWith("turn 3 /"), `(em3) malformed messages moved the frame to ${await label()}`);
      check(problems.length === 0, `(em3) malformed messages caused errors:\n  ${problems.join("\n  ")}`);

      // Play: the turns are told as they change; pause stops them.
      await parent.evaluate(() => window.send({ type: "botplay:play" }));
      await waitHeard("m.type === 'botplay:turn' && m.turn >= 5 && m.playing", "turns while playing");
      await parent.evaluate(() => window.send({ type: "botplay:pause" }));
      await waitHeard("m.type === 'botplay:turn' && !m.playing && m.turn >= 5", "the pause");
      const paused = await count();
      const pausedAt = await label();
      await parent.waitForTimeout(800);
      check((await count()) === paused && (await label()) === pausedAt, `(em3) the frame went on after pause: ${pausedAt} → ${await label()}`);
      const turns = (await heard()).filter((m) => m.type === "botplay:turn").map((m) => m.turn);
      const played = turns.slice(turns.indexOf(3));
      check(played.every((t, i) => i === 0 || t >= played[i - 1]) && new Set(played).size >= 3,
        `(em3) the turns told while playing: ${played.join(", ")}`);

      // The end: set a turn near it, play, and hear it.
      await parent.evaluate((t) => window.send({ type: "botplay:set-turn", turn: t }), ready.turns - 2);
      await waitHeard(`m.type === 'botplay:turn' && m.turn === ${ready.turns - 2}`, "the turn before the end");
      await parent.evaluate(() => window.send({ type: "botplay:play" }));
      await waitHeard(`m.type === 'botplay:ended' && m.turn === ${ready.turns}`, "the end");
      check((await label()).startsWith(`turn ${ready.turns} /`), `(em3) at the end the frame shows ${await label()}`);
      const result = await frame.locator("#outcome .result").innerText();
      check(/wins|draw/.test(result) && (await frame.locator("#outcome").isVisible()), `(em3) at the end the result is not shown: "${result}"`);
      await parent.screenshot({ path: join(SHOTS, "embed-end.png") });
      // A turn beyond the last shows the last.
      await parent.evaluate(() => window.send({ type: "botplay:set-turn", turn: 1 }));
      await waitHeard("m.type === 'botplay:turn' && m.turn === 1", "turn 1");
      const atOne = await count();
      await parent.evaluate(() => window.send({ type: "botplay:set-turn", turn: 100000 }));
      await waitHeard(`m.type === 'botplay:ended' && m.turn === ${ready.turns}`, "the end again", atOne);
      check(problems.length === 0, `(em3) errors:\n  ${problems.join("\n  ")}`);
      // The README's picture: the match in the middle.
      await parent.evaluate((t) => window.send({ type: "botplay:set-turn", turn: t }), Math.floor(ready.turns / 2));
      await waitHeard(`m.type === 'botplay:turn' && m.turn === ${Math.floor(ready.turns / 2)}`, "the middle turn");
      await parent.waitForTimeout(300);
      await parent.screenshot({ path: join(SHOTS, "embed.png") });
      if (docs) await copyFile(join(SHOTS, "embed.png"), join(REPO, "docs", "screenshots", "embed.png"));
      console.log(`ok (em3) postMessage: ready (${ready.turns} turns, ${ready.frames} frames), set-turn, play, pause, the end told; 16 malformed messages ignored without an error`);
    });

    // (em4) The headers, and who may frame what.
    await limit("(em4) headers and framing", 60_000, async () => {
      const pageHeaders = (await fetch(site.url)).headers;
      const embedHeaders = (await fetch(`${site.url}embed.html`)).headers;
      check(/frame-ancestors 'none'/.test(pageHeaders.get("content-security-policy")), "(em4) the page's policy lacks frame-ancestors 'none'");
      const embedPolicy = embedHeaders.get("content-security-policy");
      check(/frame-ancestors \*/.test(embedPolicy) && !/frame-ancestors 'none'/.test(embedPolicy),
        `(em4) the embed view's policy: ${embedPolicy}`);
      check(/worker-src 'none'/.test(embedPolicy) && !/script-src[^;]*blob:/.test(embedPolicy),
        `(em4) the embed view's policy lets it start workers or blob: scripts: ${embedPolicy}`);
      check(embedHeaders.get("cross-origin-resource-policy") === "cross-origin", "(em4) the embed view lacks CORP cross-origin");
      // The policy a host without headers leaves: the page's <meta>, made the embed view's too.
      const meta = (await (await fetch(`${site.url}embed.html`)).text()).match(/http-equiv="Content-Security-Policy"\s+content="([^"]*)"/)?.[1] ?? "";
      check(/worker-src 'none'/.test(meta) && !/script-src[^;]*(blob:|sha256)/.test(meta), `(em4) embed.html's <meta> policy: ${meta}`);
      const framing = `<iframe src="${site.url}" width="640" height="400"></iframe>`;
      refusals.length = 0;
      await parent.goto(`${course.url}?${new URLSearchParams({ code: framing })}`);
      await parent.waitForTimeout(2000);
      const shown = await Promise.all(
        parent.frames().filter((f) => f !== parent.mainFrame()).map((f) => f.evaluate(() => !!document.querySelector("#games, #landing")).catch(() => false)),
      );
      check(!shown.includes(true), "(em4) the playground was framed by another origin");
      check(refusals.some((r) => /frame-ancestors 'none'/.test(r)), `(em4) Chromium did not report refusing the frame: ${refusals.join(" | ")}`);
      console.log(`ok (em4) the playground refuses other origins' frames ("${refusals[0].slice(0, 70)}…"), the embed view allows them (frame-ancestors *, worker-src 'none', CORP cross-origin)`);
    });

    // (em5) Addresses that cannot be shown: first by the framing page changing the frame's
    // fragment (the view opens anew), then from the start.
    await limit("(em5) addresses that cannot be shown", 120_000, async () => {
      await parent.goto(`${course.url}?${new URLSearchParams({ code, w: 400, h: 300 })}`);
      await parent.waitForFunction(() => window.heard.some((m) => m.data?.type === "botplay:ready"), null, { timeout: 30_000 });
      await parent.evaluate((url) => (document.querySelector("iframe").src = url), `${site.url}embed.html#b1.AAAAdamaged`);
      await parent.waitForFunction(() => window.heard.some((m) => m.data?.type === "botplay:error"), null, { timeout: 30_000 });
      check(/damaged/.test(await embedFrame().locator("#embed-problem").innerText()), "(em5) a changed fragment does not show its problem");
      for (const [address, expected] of [
        [`${site.url}embed.html#b1.AAAAdamaged`, /cannot be shown: this link is damaged/],
        [`${site.url}embed.html`, /address holds no match/],
      ]) {
        const before = problems.length;
        await parent.goto(`${course.url}?${new URLSearchParams({ code: `<iframe src="${address}" width="400" height="300"></iframe>` })}`);
        await parent.waitForFunction(() => window.heard.some((m) => m.data?.type === "botplay:error"), null, { timeout: 30_000 });
        const told = (await heard()).find((m) => m.type === "botplay:error").message;
        const said = await embedFrame().locator("#embed-problem").innerText();
        check(expected.test(said) && said === told, `(em5) ${address.slice(-20)}: the frame says "${said}", tells "${told}"`);
        check(problems.length === before, `(em5) errors:\n  ${problems.slice(before).join("\n  ")}`);
        await parent.screenshot({ path: join(SHOTS, `embed-problem-${address.endsWith("embed.html") ? "empty" : "damaged"}.png`) });
      }
      console.log("ok (em5) a damaged embed address and one without a match are explained in the frame and told as botplay:error");
    });

    // (em6) A static host that sends no headers: the service worker gives the page and the embed
    // view their own (seen through fetches it answers).
    await limit("(em6) a host without headers", 120_000, async () => {
      const plain = await serve(dist, 0, { plain: true });
      try {
        const host = await context.newPage();
        watch(host);
        await host.goto(plain.url);
        await host.waitForFunction(() => navigator.serviceWorker?.controller && self.crossOriginIsolated, null, { timeout: 60_000 });
        const policies = await host.evaluate(async () => {
          const policy = async (path) => (await fetch(path, { cache: "no-store" })).headers.get("content-security-policy");
          return { page: await policy("./"), embed: await policy("embed.html") };
        });
        check(/frame-ancestors 'none'/.test(policies.page ?? ""), `(em6) the worker gives the page ${policies.page}`);
        check(/frame-ancestors \*/.test(policies.embed ?? "") && /worker-src 'none'/.test(policies.embed), `(em6) the worker gives the embed view ${policies.embed}`);
        await host.close();
      } finally {
        plain.server.close();
      }
      console.log("ok (em6) on a host without headers, the service worker gives the page frame-ancestors 'none' and the embed view frame-ancestors *");
    });
  } finally {
    // A browser that does not close (after a check past its limit) is killed when node exits.
    await settledWithin(context.close().catch(() => {}), 30_000);
    site.server.close();
    course.server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

runAlone(import.meta.url, embedChecks, "the embed view's tests");

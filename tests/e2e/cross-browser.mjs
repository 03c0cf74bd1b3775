// The checks that matter to a person, in every engine Debian ships: Chromium, Firefox ESR and
// WebKitGTK (drivers in tests/e2e/drivers/index.mjs), and in the situations a classroom meets:
//
//   firefox           Firefox ESR: shared memory; the match frame shares the page's process
//   webkit            WebKitGTK as shipped: cross-origin isolated, but no SharedArrayBuffer: the
//                     match runs on messages, bots read their input through the service worker
//   webkit-sab        WebKitGTK with JSC_useSharedArrayBuffer=1: shared memory, as elsewhere
//   chromium-no-sab   Chromium with SharedArrayBuffer deleted in every frame (WebKit's case)
//   chromium-no-route Chromium without SharedArrayBuffer and without service workers: nothing can
//                     pass a bot its input; the page must say so, and the rest must work
//   chromium-plain    Chromium on a static host without the headers and without service workers:
//                     not isolated; the page must say so, and the rest must work
//   firefox-static,   Firefox ESR and WebKitGTK on a static host without the headers: isolated by
//   webkit-static     the service worker after one reload
//
//   node tests/e2e/cross-browser.mjs [--dist dist] [--browsers firefox,webkit,...] [--full]
//
// In each: (x1) the page loads, says true things about isolation; (x2) the gallery draws every
// game; (x3) a match per game (the gallery's one-click Play: the starter bot against a built-in
// bot; built-in against built-in where editor bots cannot run); (x4) a Python bot loads and plays
// a whole match; (x5) a looping bot is stopped at its 50 ms budget and the page answers; (x6) a
// share link opens in a fresh profile with the same board; (x7) the editor takes typing;
// (x8) offline, the page reloads from its service worker and plays a match; (x11) a match taken
// over from a turn by the same bots ends the same. Whole-viewport
// screenshots go to tests/e2e/screenshots/xb-<browser>-*.png. At the end, a table of figures.
// Each check has a time limit (withinLimit in browser.mjs, times $TIME_LIMIT_SCALE): past it the
// run fails at once, naming the check and the browser, with tests/e2e/screenshots/
// timeout-<browser>.png, and the browser is killed. A browser that crashed under a check (WebKitGTK
// 2.50's JavaScriptCore now and then, see `crashed` in drivers/index.mjs) has its checks run once
// more in a new browser, saying so; a second crash fails.
// The default set is firefox, webkit, webkit-sab, chromium-no-sab, chromium-no-route; --full
// adds chromium-plain, plain Chromium, firefox-static and webkit-static.

import { mkdir, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliArg, defaultCheck as check, Failure, markRun, runMain, settledWithin, TIME_SCALE, TimeLimit, withinLimit } from "./browser.mjs";
import { blameCrash, open } from "./drivers/index.mjs";
import { inEveryBrowser, openBeside, setCode, setRelaxed } from "./drivers/suite.mjs";
import { LOOPING_BOT } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");
const DIST = resolve(REPO, cliArg("--dist", "dist"));
const DEFAULT = ["firefox", "webkit", "webkit-sab", "chromium-no-sab", "chromium-no-route"];
const FULL = [...DEFAULT, "chromium-plain", "chromium", "firefox-static", "webkit-static"];
const BROWSERS = (cliArg("--browsers", null)?.split(",") ?? (process.argv.includes("--full") ? FULL : DEFAULT));

const GAMES = ["ice-and-fire", "soak-overflow", "micro-rts", "skyport", "crafting-quest"];

// What each situation must be: whether bots written in the editor can run, and why not.
const EXPECT = {
  chromium: { code: true, shared: true },
  "chromium-no-sab": { code: true, shared: false },
  "chromium-no-route": { code: false, shared: false, why: /cross-origin isolated, but this browser gives it no SharedArrayBuffer/ },
  "chromium-plain": { code: false, shared: false, why: /not cross-origin isolated/ },
  firefox: { code: true, shared: true },
  webkit: { code: true, shared: false },
  "webkit-sab": { code: true, shared: true },
  // On a static host that sends no header: the service worker makes the page isolated (one
  // reload on the first visit).
  "firefox-static": { code: true, shared: true },
  "webkit-static": { code: true, shared: false },
};

// --- in the page ---------------------------------------------------------------------------------

const state = () => ({
  coi: self.crossOriginIsolated === true,
  sab: typeof SharedArrayBuffer === "function",
  controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
  warning: document.querySelector("#isolation-warning")?.innerText ?? null,
  note: document.querySelector("#isolation-note")?.innerText ?? null,
  offline: self.botplayOffline?.state ?? null,
});
const status = () => document.querySelector("#match-status")?.innerText ?? "";
// A match's end: its result line, or the failure the status says; after markRun, only once the
// status said the new match was starting.
const matchOver = () => {
  const line = document.querySelector("#match-status");
  if (!line) return null;
  if (self.botplayRun && !self.botplayRun.started) {
    const notice = document.querySelector("#notice")?.innerText;
    return notice && self.botplayRun.at + 500 < performance.now() ? { failed: notice } : null;
  }
  if (line.classList.contains("warning")) return { failed: line.innerText };
  const result = document.querySelector("#outcome .result");
  if (!result || /Starting|Playing/.test(line.innerText)) return null;
  return {
    status: line.innerText,
    outcome: result.innerText,
    faults: [...document.querySelectorAll("#outcome .fault, #faults li")].map((f) => f.innerText),
  };
};
const boardPixels = () => {
  const canvas = document.querySelector("#board");
  const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let hash = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 0x01000193) >>> 0;
  return `${canvas.width}×${canvas.height}:${hash.toString(16)}`;
};

/** Presses `button` (Run, or a gallery card's Play) and waits for the match's end. */
async function play(page, button, what, timeout) {
  await page.evaluate(markRun);
  await page.click(button);
  return waitMatch(page, what, timeout);
}

async function waitMatch(page, what, timeout = 120_000) {
  let over;
  try {
    over = await page.until(matchOver, null, { timeout, what });
  } catch (error) {
    const shown = await page.evaluate(status).catch(() => "?");
    throw new Failure(`${error.message}; the page says: '${shown}'${page.problems.length ? `; errors: ${page.problems.join("; ")}` : ""}`);
  }
  check(!over.failed, `${what}: the match failed: ${over.failed}`);
  return over;
}

// --- one browser -----------------------------------------------------------------------------------

async function suite(name, figures) {
  await mkdir(SHOTS, { recursive: true });
  await rm(join(SHOTS, `xb-${name}-failure.png`), { force: true });
  const expect = EXPECT[name];
  const plain = name === "chromium-plain" || name.endsWith("-static");
  const started = performance.now();
  const { site, browser, page, close } = await openBeside(DIST, name, { plain, opened: openFor });
  const shot = (page, what) => page.screenshot(join(SHOTS, `xb-${name}-${what}.png`));
  const fig = { browser: name };
  figures.push(fig);
  // Each check within its time limit: past it, the run fails at once, naming the check and the
  // browser, with a screenshot of the page (tests/e2e/screenshots/timeout-<browser>.png).
  const limit = (what, ms, checks) => withinLimit(what, name, ms, checks, (path) => page.screenshot(path));
  let t;
  let played;
  try {
    // (x1) Load and isolation.
    await limit("(x1) load and isolation", 150_000, async () => {
      t = performance.now();
      await page.goto(site.url);
      await page.until(() => document.querySelectorAll("#games .game-choice").length === 5, null, {
        timeout: 60_000,
        what: "the game list",
      });
      fig.load = performance.now() - t;
      // The first visit registers the service worker (and, on a host without the headers, reloads
      // once through it): give it a moment to take the page.
      if (expect.code && !expect.shared) {
        await page.until(() => Boolean(navigator.serviceWorker?.controller), null, { what: "the service worker" });
      }
      const s = await page.evaluate(state);
      fig.isolation = `${s.coi ? "isolated" : "not isolated"}, ${s.sab ? "SharedArrayBuffer" : "no SharedArrayBuffer"}${s.controlled ? ", service worker" : ""}`;
      check(s.sab === expect.shared, `(x1) SharedArrayBuffer is ${s.sab ? "there" : "missing"}, which this situation does not expect`);
      if (expect.code) {
        check(s.warning === null, `(x1) a warning is shown though editor bots can run: '${s.warning}'`);
      } else {
        check(s.warning && expect.why.test(s.warning), `(x1) the warning does not name the cause: '${s.warning}'`);
        check(/built-in bots, replays, links, the rules and the viewer still work/.test(s.warning), `(x1) the warning does not say what still works: '${s.warning}'`);
      }
      await mkdir(SHOTS, { recursive: true });
      await shot(page, "load");
      console.log(`ok (x1) ${name}: loads in ${fig.load.toFixed(0)} ms; ${fig.isolation}${s.warning ? `; says: "${s.warning}"` : ""}`);
    });

    // (x2) The gallery draws every game.
    await limit("(x2) the gallery", 60_000, async () => {
      const cards = await page.evaluate(() =>
        [...document.querySelectorAll("#landing .card")].map((el) => {
          const canvas = el.querySelector("canvas");
          const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
          const colours = new Set();
          for (let i = 0; i < data.length; i += 4 * 11) colours.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
          return { game: el.dataset.game, colours: colours.size, width: canvas.width };
        }),
      );
      check(cards.length === 5, `(x2) the gallery shows ${cards.length} games, not 5`);
      for (const card of cards) check(card.colours >= 4 && card.width > 100, `(x2) the ${card.game} card looks blank: ${JSON.stringify(card)}`);
      console.log(`ok (x2) ${name}: the gallery draws all 5 games`);
    });

    // (x3) A match per game.
    fig.matches = {};
    for (const game of GAMES) {
      await limit(`(x3) ${game}`, 180_000, async () => {
        t = performance.now();
        let over;
        if (expect.code) {
          // The gallery's one-click Play: the starter bot against a built-in bot.
          await page.until(() => Boolean(document.querySelector("#landing .card .play-now")), null, { what: "the gallery" });
          await page.click(`#landing .card[data-game="${game}"] .play-now`);
          over = await waitMatch(page, `(x3) ${game}`);
        } else {
          // Built-in bots only: they play through messages.
          await page.click(`#games .game-choice[data-game="${game}"]`);
          const builtin = await page.evaluate(() => {
            const box = document.querySelector("#player");
            // A built-in bot's option says so ("built-in bot: wait"); code and a person's do not.
            const builtins = [...box.options].filter((o) => /^built-in bot/.test(o.text)).map((o) => o.value);
            return builtins.find((v) => v !== box.value) ?? builtins.at(-1);
          });
          await page.select("#player", builtin);
          // A bot written in the editor is refused with the same plain sentence.
          if (game === GAMES[0]) {
            await page.select("#player", "javascript");
            await page.click("#run");
            const said = await page.until(() => document.querySelector("#notice")?.innerText || document.querySelector("#match-status.warning")?.innerText, null, { what: "the refusal" });
            check(expect.why.test(said), `(x3) an editor bot is refused without the reason: '${said}'`);
            await page.select("#player", builtin);
            t = performance.now();
          }
          over = await play(page, "#run", `(x3) ${game}`);
        }
        fig.matches[game] = performance.now() - t;
        check(over.outcome.length > 0, `(x3) ${game}: no outcome shown`);
        if (expect.code) check(!over.faults.some((f) => /your bot/.test(f)), `(x3) ${game}: the starter faulted: ${over.faults.join("; ")}`);
        if (game === "ice-and-fire") await shot(page, "match");
        console.log(`ok (x3) ${name}: ${game} in ${(fig.matches[game] / 1000).toFixed(2)} s: "${over.outcome}"`);
      });
      if (game !== GAMES.at(-1)) await limit(`(x3) the reload after ${game}`, 90_000, () => reload(page, name));
    }
    await limit("(x3) the note under the page", 30_000, async () => {
      const where = await page.evaluate(state);
      if (!expect.shared) {
        const cause = name === "chromium-plain" ? /not cross-origin isolated, so it has no SharedArrayBuffer/ : /browser gives the page no SharedArrayBuffer/;
        check(cause.test(where.note ?? ""), `(x3) the note under the page does not say how the match ran: '${where.note}'`);
      }
      if (where.note) console.log(`   note: "${where.note}"`);
    });

    // (x6) A share link, opened in a fresh profile: the same match, the same board.
    await limit("(x6) a share link", 240_000, async () => {
      await page.click('#games .game-choice[data-game="ice-and-fire"]');
      await page.select("#player", expect.code ? "javascript" : "expander");
      await setRelaxed(page, true);
      played = await play(page, "#run", "(x6) the match to share");
      await page.click("#first");
      for (let i = 0; i < 5; i++) await page.click("#step-forward");
      await page.until(() => Boolean(document.querySelector("#share-turn")), null, { what: "the share panel" });
      if (!(await page.evaluate(() => document.querySelector("#share-turn").checked))) await page.click("#share-turn");
      await page.click("#make-link");
      const link = await page.until(() => document.querySelector("#share-link")?.value, null, { what: "the link" });
      const board = await page.evaluate(boardPixels);
      const fresh = await openFor(name);
      try {
        t = performance.now();
        await fresh.page.goto(link);
        const shown = await waitMatch(fresh.page, "(x6) the link's match", 60_000);
        fig.link = performance.now() - t;
        check(shown.outcome === played.outcome, `(x6) the link shows '${shown.outcome}', not '${played.outcome}'`);
        const label = await fresh.page.until(() => document.querySelector("#turn-label")?.innerText.startsWith("turn 5 /") && document.querySelector("#turn-label").innerText, null, { what: "turn 5" });
        const freshBoard = await fresh.page.evaluate(boardPixels);
        check(freshBoard === board, `(x6) the board at ${label} differs: ${freshBoard} in the fresh profile, ${board} where the link was made`);
        await fresh.page.screenshot(join(SHOTS, `xb-${name}-link.png`));
        // "Run again" plays the link's bots to the same end.
        const again = await play(fresh.page, "#run", "(x6) the link's match run again");
        check(again.outcome === played.outcome, `(x6) running the link again gave '${again.outcome}', not '${played.outcome}'`);
      } finally {
        await fresh.close();
      }
      console.log(`ok (x6) ${name}: a share link (${link.length} characters) opens in a fresh profile in ${fig.link.toFixed(0)} ms, the same board at turn 5, and Run again plays to the same end`);
    });

    // (x11) Taken over at turn 5 by the same bots (the editor's starter, or the built-in bot
    // recorded where editor bots cannot run): each reads the turns so far, then plays on to the
    // very same end.
    await limit("(x11) a match taken over", 120_000, async () => {
      if (!expect.code) {
        // The editor's bot cannot run here: the panel says why, beside its button.
        await page.click("#take-over-start");
        const said = await page.until(() => document.querySelector("#take-over-refusal")?.innerText, null, { what: "the take-over's refusal" });
        check(expect.why.test(said), `(x11) the editor's bot taking over is refused without the reason: '${said}'`);
        await page.select("#take-over-seat-0", "recorded");
      }
      t = performance.now();
      const taken = await play(page, "#take-over-start", "(x11) the match taken over");
      fig.takeOver = performance.now() - t;
      check(taken.outcome === played.outcome, `(x11) taken over by the same bots, the match ended '${taken.outcome}', not '${played.outcome}'`);
      const origin = await page.evaluate(() => document.querySelector("#match-origin")?.innerText ?? "");
      check(origin.startsWith("Taken over after turn 5:"), `(x11) the origin line: '${origin}'`);
      console.log(`ok (x11) ${name}: taken over at turn 5 by the same bots, in ${fig.takeOver.toFixed(0)} ms, to the same end`);
    });

    if (expect.code) {
      // (x4) Python: Pyodide loads, and its starter plays a whole match.
      await limit("(x4) Python", 300_000, async () => {
        await page.select("#player", "python");
        await setCode(page, await readFile(join(REPO, "www", "starter", "ice-and-fire.py"), "utf8"));
        await setRelaxed(page, true);
        await page.evaluate(markRun);
        t = performance.now();
        await page.click("#run");
        await page.until(() => /Playing/.test(document.querySelector("#match-status")?.innerText ?? "") || Boolean(self.botplayRun.started && document.querySelector("#outcome .result")), null, { timeout: 120_000, what: "Python to load" });
        fig.python = performance.now() - t;
        const py = await waitMatch(page, "(x4) the Python match");
        fig.pythonMatch = performance.now() - t - fig.python;
        check(!py.faults.some((f) => /your bot/.test(f)), `(x4) the Python starter faulted: ${py.faults.join("; ")}`);
        console.log(`ok (x4) ${name}: Python loads in ${(fig.python / 1000).toFixed(1)} s and plays: "${py.outcome}"`);
      });

      // (x5) A looping bot is stopped at its 50 ms budget; the page answers.
      await limit("(x5) a looping bot", 60_000, async () => {
        await page.select("#player", "javascript");
        await setCode(page, LOOPING_BOT);
        await setRelaxed(page, false);
        t = performance.now();
        const loop = await play(page, "#run", "(x5) the looping bot's match", 30_000);
        fig.loop = performance.now() - t;
        const faults = loop.faults.join(" ");
        check(/timeout/.test(faults) && /within 50 ms/.test(faults), `(x5) no 50 ms timeout reported: '${faults}'`);
        t = performance.now();
        check((await page.evaluate(() => 6 * 7)) === 42, "(x5) the page does not compute");
        const answer = performance.now() - t;
        check(answer < 1_000, `(x5) the page took ${answer.toFixed(0)} ms to answer`);
        console.log(`ok (x5) ${name}: the looping bot is stopped: "${loop.faults[0]}" (page answers in ${answer.toFixed(0)} ms)`);
      });

      // (x9) Stop: a bot thinking through its (relaxed) first turn is stopped at once.
      await limit("(x9) Stop", 60_000, async () => {
        await setCode(page, "readline();\nfor (const t = Date.now(); Date.now() - t < 8000; );\nconsole.log('WAIT');\n");
        await setRelaxed(page, true);
        await page.evaluate(markRun);
        await page.click("#run");
        await page.until(() => self.botplayRun.started && /Playing/.test(document.querySelector("#match-status")?.innerText ?? ""), null, { what: "the thinking bot's match" });
        t = performance.now();
        await page.click("#stop");
        await page.until(() => /Stopped/.test(document.querySelector("#match-status")?.innerText ?? ""), null, { timeout: 5_000, what: "the match to stop" });
        const stopMs = performance.now() - t;
        console.log(`ok (x9) ${name}: Stop ends a match while a bot thinks, in ${stopMs.toFixed(0)} ms`);
        await setRelaxed(page, false);
      });

      // (x7) The editor takes typing, with bracket completion.
      await limit("(x7) the editor", 60_000, async () => {
        await page.type("#bot-code .cm-content", "x");
        await page.evaluate(() => {
          const editor = botplayEditor.get("bot-code");
          editor.paste("// start\n");
        });
        await page.type("#bot-code .cm-content", "// typed (");
        const doc = await page.evaluate(() => botplayEditor.get("bot-code").getDoc());
        check(/\/\/ typed \(\)/.test(doc), `(x7) typing in the editor gave '${doc.slice(-40)}'`);
        await shot(page, "editor");
        console.log(`ok (x7) ${name}: the editor takes typing ("// typed ()")`);
      });
    }

    // (x10) A seat played by hand: its turn is asked, the lines go back, the next turn comes.
    await limit("(x10) a seat played by hand", 90_000, async () => {
      await page.click('#games .game-choice[data-game="ice-and-fire"]');
      await page.select("#player", "human");
      await page.select("#opponent", "expander");
      await page.evaluate(markRun);
      await page.click("#run");
      await page.until(() => self.botplayRun.started && Boolean(document.querySelector("#human-end-turn")), null, { what: "the person's first turn" });
      const firstTurn = await page.evaluate(() => document.querySelector("#turn-label")?.innerText);
      await page.click("#human-end-turn");
      const nextTurn = await page.until(
        (first) => {
          const label = document.querySelector("#turn-label")?.innerText;
          return label !== first && document.querySelector("#human-end-turn") ? label : null;
        },
        firstTurn,
        { what: "the person's next turn" },
      );
      await page.click("#stop");
      await page.until(() => /Stopped/.test(document.querySelector("#match-status")?.innerText ?? ""), null, { timeout: 5_000, what: "the match by hand to stop" });
      await page.select("#player", expect.code ? "javascript" : "expander");
      console.log(`ok (x10) ${name}: a seat played by hand is asked, answers, and is asked again ('${firstTurn}', then '${nextTurn}')`);
    });

    // (x8) Offline: the server goes away; the page reloads from its service worker and plays.
    await limit("(x8) offline", 120_000, async () => {
      if (name !== "chromium-plain" && name !== "chromium-no-route") {
        await page.until(() => self.botplayOffline?.state === "ready", null, { timeout: 60_000, what: "the offline copy" });
        await new Promise((done) => {
          site.server.close(done);
          site.server.closeAllConnections?.();
        });
        await reload(page, name);
        await page.until(() => document.querySelectorAll("#games .game-choice").length === 5, null, { timeout: 30_000, what: "the page offline" });
        await page.until(() => self.botplayOffline?.state === "offline", null, { timeout: 10_000, what: "the offline state" });
        await page.click('#games .game-choice[data-game="micro-rts"]');
        const off = await play(page, "#run", "(x8) a match offline");
        await shot(page, "offline");
        console.log(`ok (x8) ${name}: offline, the page reloads from its copy and plays: "${off.outcome}"`);
      }
    });
    // Pyodide tells a classic worker by trying importScripts("data:text/javascript,"), which the
    // page's policy refuses (and Pyodide expects may fail): Firefox reports the refusal.
    const problems = page.problems.filter((p) => !/blocked a script \(script-src-elem\) at data:text\/javascript,/.test(p));
    check(problems.length === 0, `errors in the page:\n  ${problems.join("\n  ")}`);
    fig.total = performance.now() - started;
    console.log(`ok ${name}: every check passed in ${(fig.total / 1000).toFixed(1)} s`);
  } catch (error) {
    // A check past its limit has its screenshot already (a hung browser would not answer).
    if (!(error instanceof TimeLimit)) await settledWithin(shot(page, "failure").catch(() => {}), 15_000);
    throw await blameCrash(browser, error);
  } finally {
    await close();
  }
}

/** How long a reload may take before it is tried once more. */
const RELOAD_MS = 30_000 * TIME_SCALE;

/**
 * Reloads the page, within RELOAD_MS; a reload that fails or does not end by then is tried once
 * more (a new navigation to the same address), with a line saying so. (WebKitWebDriver answers
 * no command once WebKitGTK's web process has crashed: see `crashed` in drivers/index.mjs.)
 */
async function reload(page, name) {
  const first = await settledWithin(page.reload().then(() => null, (error) => error.message || String(error)), RELOAD_MS, `no end within ${RELOAD_MS / 1000} s`);
  if (first === null) return;
  console.log(`   the reload in ${name} failed (${first}): once more`);
  const url = await settledWithin(Promise.resolve().then(() => page.url()).catch(() => null), 10_000, null);
  if (!url) throw new Failure(`the reload in ${name} failed (${first}), and the browser does not say where it is`);
  await page.goto(url);
}

function openFor(name) {
  return open(name.replace(/-static$/, ""));
}

const figuresOf = (figures) => {
  const rows = figures.map((f) => {
    const matches = f.matches ? Object.values(f.matches) : [];
    const median = matches.length ? matches.sort((a, b) => a - b)[Math.floor(matches.length / 2)] : null;
    return `  ${f.browser.padEnd(18)} load ${f.load?.toFixed(0) ?? "-"} ms · ${f.isolation ?? "-"} · Python ${f.python ? (f.python / 1000).toFixed(1) + " s" : "-"} · a match (median of 5 games) ${median ? (median / 1000).toFixed(2) + " s" : "-"} (Ice and Fire ${f.matches?.["ice-and-fire"] ? (f.matches["ice-and-fire"] / 1000).toFixed(2) + " s" : "-"}) · all ${f.total ? (f.total / 1000).toFixed(0) + " s" : "-"}`;
  });
  return rows.join("\n");
};

async function main() {
  const figures = [];
  await inEveryBrowser(BROWSERS, (name) => suite(name, figures), () => figures.pop());
  console.log(`\nfigures:\n${figuresOf(figures)}`);
}

runMain(main, "cross-browser checks");

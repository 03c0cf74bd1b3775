// TypeScript bots in the page (www/js-bot-worker.js runs Sucrase's transform, www/editor/
// typescript.js, in the bot's worker before the bot starts), in Debian's Chromium through
// playwright-core.
//
//   trunk build --release --skip-version-check --dist dist
//   node tests/e2e/typescript.mjs [--dist dist]
//
// (ts1) A TypeScript bot with an enum, a class with parameter properties and type annotations,
//       put into the editor in its TypeScript mode, plays a whole Ice and Fire match without a
//       fault; Sucrase's script (typescript.js) is fetched for it, and was not fetched while
//       only JavaScript played.
// (ts2) A TypeScript bot that throws on line 14 (after lines of types only): the crash names
//       line 14, its "line 14" is a link, and the editor marks line 14, the line that threw.
// (ts3) A TypeScript syntax error is a crash with its line and column; the page answers at once.
// (ts4) Each game's TypeScript starter bot (www/starter/<game>.ts) plays a whole match against
//       the game's default opponent without a fault of its own.
// (ts5) A share link of a TypeScript bot opens in a fresh browser as TypeScript (the slot's
//       language, the code in the editor) and plays.
// (ts6) A .ts file added to a class (as a teacher adds students' files) plays in the arena.
// (ts7) Without shared memory (the match on messages, as in WebKitGTK): a TypeScript bot plays
//       and its crash names its line.
// (ts8) What TypeScript costs: Sucrase's size (raw and gzipped) and, in a worker as a bot's,
//       the time to load it and to transform each starter (printed, not judged).
// No console error anywhere.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_ARGS, defaultCheck, launch, openPlayground, openSession, runAlone, setCode, setRelaxed, settledWithin, withinLimit } from "./browser.mjs";
import { iceAndFireWalker } from "./bots.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const GAMES = ["ice-and-fire", "soak-overflow", "micro-rts", "skyport", "crafting-quest"];

// Ice and Fire: every unit walks to the enemy HQ, one unit trained beside the HQ when there is
// gold. An enum, a class with parameter properties, interfaces, generics, `as`, `!`.
const TYPED_BOT = await readFile(join(REPO, "tests", "e2e", "typescript", "walker.ts"), "utf8");

// Throws on line 14, after lines that are types only (removed, their lines kept).
const THROWING_BOT = `declare function readline(): string;
interface Cell {
  x: number;
  y: number;
}
type Grid = Cell[][];
enum Kind { Void, Land }
class Board {
  constructor(private grid: Grid) {}
  cell(x: number, y: number): Cell | undefined { return this.grid[y]?.[x]; }
}
const spots: number = parseInt(readline());
const board = new Board([]);
const c: number = board.cell(spots, Kind.Land)!.x;
`;

// Does not parse: line 3 has a type where a value must be.
const SYNTAX_ERROR_BOT = `declare function readline(): string;
const spots: number = parseInt(readline());
let gold: number = : string;
`;

export async function typescriptChecks({ dist, check = defaultCheck }) {
  const { url, page, problems, close } = await openSession(dist, "typescript");
  try {
    const sucraseFetches = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith("/typescript.js")) sucraseFetches.push(r.url());
    });
    await openPlayground(page, url);
    const limit = (what, ms, checks) => withinLimit(what, "chromium", ms, checks, (path) => page.screenshot({ path }));
    const faults = async () => ((await page.locator("#faults").count()) ? (await page.locator("#faults").innerText()).trim() : "");
    const play = async (timeout) => {
      await page.locator("#run").click();
      await page.locator("#outcome .result").waitFor({ timeout });
      return (await page.locator("#outcome .result").innerText()).trim();
    };

    await limit("(ts1) a typed bot plays", 240_000, async () => {
      // JavaScript first: no Sucrase for it.
      await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
      await setCode(page, iceAndFireWalker());
      await page.locator("#opponent").selectOption("wait");
      await setRelaxed(page, true);
      await play(120_000);
      check(sucraseFetches.length === 0, `(ts1) typescript.js was fetched for a JavaScript bot: ${sucraseFetches}`);
      const choices = await page.locator("#player option").allInnerTexts();
      check(choices.includes("this TypeScript code"), `(ts1) the choices: ${choices}`);
      await page.locator("#player").selectOption("typescript");
      await page
        .waitForFunction(() => botplayEditor.get("bot-code").getDoc().includes("(TypeScript)"), null, { timeout: 5_000 })
        .catch(() => {});
      const starter = await page.evaluate(() => botplayEditor.get("bot-code").getDoc());
      check(starter.startsWith("// A Code of Ice & Fire — starter bot (TypeScript)."), `(ts1) the TypeScript starter is not in the editor: ${starter.slice(0, 60)}`);
      await setCode(page, TYPED_BOT);
      // The editor's TypeScript mode: \`declare\` is a keyword, and \`number\` in a type is coloured
      // as the type \`string\` is (JavaScript's mode knows neither).
      const colours = await page.evaluate(() => {
        const root = document.querySelector("#bot-code").shadowRoot;
        const colour = {};
        for (const s of root.querySelectorAll(".cm-line span")) colour[s.textContent] ??= getComputedStyle(s).color;
        return colour;
      });
      check(colours.declare && colours.string && colours.number === colours.string && colours.Point === colours.string,
        `(ts1) the editor's TypeScript mode: ${JSON.stringify(colours).slice(0, 200)}`);
      const result = await play(120_000);
      const shown = await faults();
      check(/red \(your bot\) wins/.test(result), `(ts1) the typed bot's match: '${result}' ${shown}`);
      check(!/your bot/.test(shown), `(ts1) the typed bot faulted: ${shown}`);
      await page.locator("#first").click();
      await page.locator("#step-forward").click();
      const log = await page.locator("#turn-details .seat-turn.seat-0 pre.stderr").innerText();
      check(/^Me: \d+ units/.test(log), `(ts1) its debug log (an enum's name): '${log}'`);
      check(sucraseFetches.length === 1, `(ts1) typescript.js fetched ${sucraseFetches.length} times`);
      console.log(`ok (ts1) a TypeScript bot (enum, parameter properties, types) plays: '${result}'; Sucrase fetched only then`);
    });

    await limit("(ts2) a runtime error's TypeScript line", 120_000, async () => {
      await setCode(page, THROWING_BOT);
      await play(60_000);
      const crash = await faults();
      check(/crash/.test(crash) && /TypeError/.test(crash) && /\(line 14\)/.test(crash), `(ts2) the crash: '${crash}'`);
      const link = page.locator("#faults .fault-line").first();
      check((await link.innerText()) === "line 14", `(ts2) the fault links '${await link.innerText()}'`);
      await link.click();
      const marked = await page.evaluate(() => botplayEditor.get("bot-code").markedLine());
      check(marked === 14, `(ts2) the editor marks line ${marked}`);
      const text = await page.locator("#bot-code .cm-fault-line").innerText();
      check(text.startsWith("const c: number = board.cell("), `(ts2) the marked line: '${text}'`);
      console.log(`ok (ts2) a TypeScript crash names its line: "${crash.split("\n")[0]}", marked in the editor`);
    });

    await limit("(ts3) a syntax error", 60_000, async () => {
      await setCode(page, SYNTAX_ERROR_BOT);
      const result = await play(30_000);
      const syntax = await faults();
      check(/crash/.test(syntax) && /SyntaxError/.test(syntax) && /line 3, column \d+/.test(syntax), `(ts3) the syntax error: '${syntax}' (${result})`);
      const started = performance.now();
      await page.evaluate(() => document.title);
      const answer = performance.now() - started;
      check(answer < 1000, `(ts3) the page took ${answer.toFixed(0)} ms to answer`);
      check((await page.evaluate(() => botplayEditor.get("bot-code").markedLine())) === 3, "(ts3) line 3 is not marked");
      console.log(`ok (ts3) a TypeScript syntax error: "${syntax.split("\n")[0]}"`);
    });

    for (const game of GAMES) {
      await limit(`(ts4) ${game}: the TypeScript starter`, 300_000, async () => {
        await page.locator(`#games .game-choice[data-game="${game}"]`).click();
        await page.locator("#player").selectOption("typescript");
        const starter = await readFile(join(REPO, "www", "starter", `${game}.ts`), "utf8");
        // The starter as shipped (what the editor holds for a new person), whatever was saved.
        await setCode(page, starter);
        await setRelaxed(page, true);
        const started = performance.now();
        const result = await play(240_000);
        const own = (await page.locator("#faults li").allInnerTexts()).filter((f) => /your bot/.test(f));
        check(own.length === 0, `(ts4) ${game}: the TypeScript starter faulted: ${own.join("; ")}`);
        console.log(`ok (ts4) ${game}: the TypeScript starter plays a whole match in ${((performance.now() - started) / 1000).toFixed(1)} s: '${result}'`);
      });
    }

    await limit("(ts5) a share link of a TypeScript bot", 180_000, async () => {
      await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
      await page.locator("#player").selectOption("typescript");
      await setCode(page, TYPED_BOT);
      await page.locator("#opponent").selectOption("wait");
      await setRelaxed(page, true);
      const played = await play(120_000);
      await page.locator("#share-match").uncheck();
      await page.locator("#make-link").click();
      const link = await page.locator("#share-link").inputValue();
      await page.locator("#share-match").check();
      const freshProfile = await mkdtemp(join(tmpdir(), "botplay-typescript-fresh-"));
      const freshContext = await launch(freshProfile);
      try {
        const fresh = freshContext.pages()[0] ?? (await freshContext.newPage());
        fresh.on("pageerror", (e) => problems.push(`page error (fresh page): ${e.message}`));
        await fresh.goto(link);
        await fresh.reload();
        await fresh.locator("#match-status").getByText(/over/).waitFor({ timeout: 120_000 });
        const language = await fresh.locator("#player").inputValue();
        check(language === "typescript", `(ts5) the link's bot opened as '${language}'`);
        const code = await fresh.evaluate(() => botplayEditor.get("bot-code").getDoc());
        check(code === TYPED_BOT, "(ts5) the link's TypeScript is not in the editor");
        const again = (await fresh.locator("#outcome .result").innerText()).trim();
        check(again === played, `(ts5) the link played to '${again}', not '${played}'`);
      } finally {
        await settledWithin(freshContext.close(), 30_000);
        await rm(freshProfile, { recursive: true, force: true });
      }
      console.log(`ok (ts5) a share link of a TypeScript bot (${link.length} characters) opens as TypeScript and plays to '${played}'`);
    });

    await limit("(ts6) a .ts file in a class, in the arena", 240_000, async () => {
      // Ice and Fire is shown (ts5). A teacher adds a student's .ts file to the class; it plays
      // the arena against a built-in bot.
      const folder = await mkdtemp(join(tmpdir(), "botplay-typescript-class-"));
      try {
        const file = join(folder, "Grace.ts");
        await writeFile(file, TYPED_BOT);
        await page.locator("#arena > summary").click();
        await page.locator("#class-files").setInputFiles(file);
        await page.locator(".class-bot-name").first().waitFor({ timeout: 10_000 });
        const names = await page.locator(".class-bot-name").evaluateAll((inputs) => inputs.map((i) => i.value));
        check(names.includes("Grace"), `(ts6) the class's bots: ${names}`);
        for (const box of await page.locator("input.arena-bot").all()) {
          const wanted = ["Grace", "wait"].includes(await box.getAttribute("value"));
          if ((await box.isChecked()) !== wanted) await box.click();
        }
        await page.locator("#arena-matches").selectOption("2");
        await page.locator("#arena-run").click();
        await page.locator("#arena-progress", { hasText: "done: 2 matches" }).waitFor({ timeout: 180_000 });
        const rows = await page.locator("#arena-bots-table tbody tr").allInnerTexts();
        const grace = (rows.find((r) => r.startsWith("Grace")) ?? "").split("\t");
        // Columns: bot, rating, won, drawn, lost, avg score, timeouts, crashes, invalid.
        check(grace[2] === "2" && grace[6] === "0" && grace[7] === "0", `(ts6) Grace's row: ${grace.join(" ")}`);
        console.log(`ok (ts6) a .ts file added to the class plays the arena: ${grace.join(" ")}`);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    await limit("(ts7) on messages, without shared memory", 180_000, async () => {
      // As WebKitGTK ships: no SharedArrayBuffer (the match on messages, input through the
      // service worker); the sandboxed frame in the page's process so that the init script
      // surely runs in it first (as tests/e2e/drivers/index.mjs does).
      const bareProfile = await mkdtemp(join(tmpdir(), "botplay-typescript-no-sab-"));
      const bare = await launch(bareProfile, { args: [...CHROMIUM_ARGS, "--disable-features=IsolateSandboxedIframes"] });
      try {
        await bare.addInitScript(() => {
          delete globalThis.SharedArrayBuffer;
        });
        const other = bare.pages()[0] ?? (await bare.newPage());
        other.on("pageerror", (e) => problems.push(`page error (no shared memory): ${e.message}`));
        await other.goto(url);
        await other.waitForFunction(() => Boolean(navigator.serviceWorker?.controller), null, { timeout: 30_000 });
        check((await other.evaluate(() => typeof SharedArrayBuffer)) === "undefined", "(ts7) the page has shared memory");
        await other.locator('#games .game-choice[data-game="ice-and-fire"]').click();
        await other.locator("#player").selectOption("typescript");
        await other.locator("#opponent").selectOption("wait");
        await setRelaxed(other, true);
        const run = async (code) => {
          await setCode(other, code);
          await other.locator("#run").click();
          await other.locator("#outcome .result").waitFor({ timeout: 120_000 });
          const faults = (await other.locator("#faults").count()) ? await other.locator("#faults").innerText() : "";
          return [(await other.locator("#outcome .result").innerText()).trim(), faults.trim()];
        };
        const [won, none] = await run(TYPED_BOT);
        check(/red \(your bot\) wins/.test(won) && !/your bot/.test(none), `(ts7) the typed bot on messages: '${won}' ${none}`);
        const [, crash] = await run(THROWING_BOT);
        check(/TypeError/.test(crash) && /\(line 14\)/.test(crash), `(ts7) the crash on messages: '${crash}'`);
        console.log(`ok (ts7) without shared memory (on messages) a TypeScript bot plays ('${won}') and its crash names line 14`);
      } finally {
        await settledWithin(bare.close(), 30_000);
        await rm(bareProfile, { recursive: true, force: true });
      }
    });

    await limit("(ts8) what TypeScript costs", 60_000, async () => {
      const sucrase = await readFile(join(dist, "typescript.js"));
      const starters = {};
      for (const game of GAMES) starters[game] = await readFile(join(REPO, "www", "starter", `${game}.ts`), "utf8");
      // As a bot's worker does: Sucrase's text from a blob: URL, then the transform.
      const times = await page.evaluate(async ([text, starters]) => {
        const worker = new Worker(URL.createObjectURL(new Blob([`
          onmessage = ({ data: [text, starters] }) => {
            const t0 = performance.now();
            importScripts(URL.createObjectURL(new Blob([text], { type: "text/javascript" })));
            const load = performance.now() - t0;
            const out = { load, first: {}, warm: {} };
            for (const [game, code] of Object.entries(starters)) {
              const t = performance.now();
              self.botplayTypeScript(code);
              out.first[game] = performance.now() - t;
            }
            for (const [game, code] of Object.entries(starters)) {
              const t = performance.now();
              for (let i = 0; i < 20; i++) self.botplayTypeScript(code);
              out.warm[game] = (performance.now() - t) / 20;
            }
            postMessage(out);
          };`], { type: "text/javascript" })));
        const answer = new Promise((ok) => (worker.onmessage = (e) => ok(e.data)));
        worker.postMessage([text, starters]);
        const out = await answer;
        worker.terminate();
        return out;
      }, [sucrase.toString("utf8"), starters]);
      const ms = (n) => `${n.toFixed(1)} ms`;
      console.log(`ok (ts8) Sucrase (typescript.js): ${sucrase.length} bytes, ${gzipSync(sucrase, { level: 9 }).length} gzipped, fetched only when a TypeScript bot plays`);
      console.log(`ok (ts8) in a bot's worker: loading Sucrase ${ms(times.load)}; the starters' transform, first and warm: ${GAMES.map((g) => `${g} ${ms(times.first[g])} / ${ms(times.warm[g])}`).join(", ")}`);
    });

    check(problems.length === 0, `problems: ${problems.join("; ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, typescriptChecks, "tests/e2e/typescript.mjs");

// The same class and seed give the same table in the page and in the CLI: a class goes round
// class file → page → JSON → `botplay arena --class`, in Debian's Chromium through
// playwright-core (the page: src/app/class_roster.rs, src/app/arena_panel.rs; the CLI:
// crates/cli/src/arena/; both write crates/arena/src/report.rs's JSON).
//
//   node tests/e2e/class-cli.mjs [--dist dist] [--botplay target/debug/botplay]
//
// Without --botplay (or $BOTPLAY), the CLI is built first with `cargo build -p botplay`.
//
// The class: five bots for Soak Overflow (league 5, relaxed budgets, one match per pair in each
// seating on one seed): two students' deterministic JavaScript bots (the starter and a variant),
// a Python bot (the starter), a JavaScript bot that crashes in its fifth turn, and the built-in
// soaker as a "gauntlet" bot.
//
// (cc1) The class opens in the page: a class file (the Python bot, with a pseudonym, and the
//       built-in bot), then three students' share links pasted; five named bots, in that order.
// (cc2) The page plays the class's arena (only the class's bots ticked, the class's league,
//       seed, matches per pair and budgets; one match at a time): every planned match played.
// (cc3) The page's results as JSON (#arena-json) and the class file it saves: the class is the
//       one opened (set-up, budgets, matches per pair, each bot's name, pseudonym and code); the
//       JSON is of that set-up, and its matches are the plan (every pair once in each seating, on
//       the seed the arena's seed derives: arena::plan::round_seed, computed here again).
// (cc4) The crashing bot's matches, as the page counts turns: the viewer says its crash is in
//       turn 5 (the bot's fifth turn), and so does the page's JSON; no other bot faults.
// (cc5) The CLI plays the class file the page saved (`botplay arena --class FILE --json`, the
//       seed and matches per pair the class's): its JSON is the page's. The set-up, the planned
//       and played matches, each match's seed, seats, scores, ranks and faults (kind, seat and
//       turn; the fault's text is each driver's own), each bot's standing (name, pseudonym,
//       spec, matches, wins, draws, losses, average score, faults by kind, rating) and each
//       pair's numbers. Ratings, averages and intervals are compared within 1e-9 (the page's are
//       computed in wasm, the CLI's natively, the same operations in the same order); the rest
//       exactly. Any difference fails, naming the match, bot or pair. (First, the comparison is
//       shown a copy of the CLI's JSON with a score changed and a fault added: it must see both.)
// When the two JSONs differ, both are kept as tests/e2e/screenshots/class-cli-page.json and
// class-cli-cli.json. Every step has a time limit (times TIME_LIMIT_SCALE) that names what hung.

import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, openSession, runAlone, setRelaxed, studentLink, TIME_SCALE, withinLimit } from "./browser.mjs";
import { botplayBinary, run, stopGroups } from "./processes.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");
const GAME = "soak-overflow";
const RULESET = "league-5";
const SEED = 20_251_127;
/** Matches per pair: each pair once in each seating, on one seed. */
const PER_PAIR = 2;
/** The crashing bot crashes once it has read the input of its fifth turn. */
const CRASH_TURN = 5;
/** What floating-point numbers of the two JSONs may differ by. */
const EPSILON = 1e-9;

/** A student's share link, as the page makes it. */
const shareLink = (base, name, code) => studentLink(base, { game: GAME, ruleset: RULESET, relaxed: true }, name, code);

/** `text` with `from` replaced by `to`, where `from` must be (a starter that changed fails here). */
function edit(text, from, to, what) {
  if (!text.includes(from)) throw new Error(`${what}: the starter no longer holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

/** arena::plan::round_seed: SplitMix64 of the arena's seed and the round, into 1 ..= 2^31 - 1. */
function roundSeed(seed, round) {
  const mask = (1n << 64n) - 1n;
  let z = (BigInt.asUintN(64, BigInt(seed)) + ((BigInt(round) + 1n) * 0x9e3779b97f4a7c15n)) & mask;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
  z ^= z >> 31n;
  return Number(1n + (z % 2147483647n));
}

/** The plan of `bots` bots, two seats, `PER_PAIR` (2) matches per pair: seats numbered from 1. */
function expectedPlan(bots, seed) {
  const out = [];
  for (let a = 1; a <= bots; a++) {
    for (let b = a + 1; b <= bots; b++) {
      out.push({ match: out.length + 1, seed: roundSeed(seed, 0), bots: [a, b] });
      out.push({ match: out.length + 1, seed: roundSeed(seed, 0), bots: [b, a] });
    }
  }
  return out;
}

/** The CLI: --botplay PATH, $BOTPLAY, or `cargo build -p botplay`'s executable. */
function givenBotplay() {
  const i = process.argv.indexOf("--botplay");
  if (i > 0) return resolve(process.argv[i + 1]);
  if (process.env.BOTPLAY) return resolve(process.env.BOTPLAY);
  return undefined;
}

/** Every difference between the page's JSON and the CLI's, each naming its match or bot. */
export function differences(page, cli) {
  const out = [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const close = (a, b) =>
    a === b || (typeof a === "number" && typeof b === "number" && Math.abs(a - b) <= EPSILON * Math.max(1, Math.abs(a), Math.abs(b)));
  const closeAll = (a, b) =>
    Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, k) => close(x, b[k])) : close(a, b);
  const field = (where, name, a, b, compare = same) => {
    if (!compare(a, b)) out.push(`${where}: ${name} is ${JSON.stringify(a)} in the page, ${JSON.stringify(b)} in the CLI`);
  };
  for (const key of ["game", "game_version", "ruleset", "options", "relaxed", "seed", "players", "matches_per_group", "planned", "played", "interrupted", "shard"]) {
    field("the arena", key, page[key], cli[key]);
  }
  const names = (report) => (report.bots ?? []).map((b) => b.name);
  const label = (seats) => seats.map((b) => names(page)[b - 1] ?? `bot ${b}`).join(" vs ");
  const matches = (report) => new Map((report.matches ?? []).map((m) => [m.match, m]));
  const [pm, cm] = [matches(page), matches(cli)];
  for (const n of [...new Set([...pm.keys(), ...cm.keys()])].sort((a, b) => a - b)) {
    const [p, c] = [pm.get(n), cm.get(n)];
    if (!p || !c) {
      out.push(`match ${n} (${label((p ?? c).bots)}): played only in the ${p ? "page" : "CLI"}`);
      continue;
    }
    const where = `match ${n} (${label(p.bots)}, seed ${p.seed})`;
    for (const key of ["seed", "bots", "scores", "ranks"]) field(where, key, p[key], c[key]);
    const faults = (m) => (m.faults ?? []).map((f) => `${f.kind} of seat ${f.seat} in turn ${f.turn}`);
    field(where, "faults", faults(p), faults(c));
  }
  const bots = Math.max(page.bots?.length ?? 0, cli.bots?.length ?? 0);
  for (let i = 0; i < bots; i++) {
    const [p, c] = [page.bots?.[i], cli.bots?.[i]];
    const where = `bot ${i + 1} (${p?.name ?? c?.name})`;
    if (!p || !c) {
      out.push(`${where}: only in the ${p ? "page" : "CLI"}`);
      continue;
    }
    for (const key of ["bot", "name", "pseudonym", "spec", "matches", "wins", "draws", "losses", "faults"]) {
      field(where, key, p[key] ?? "", c[key] ?? "");
    }
    field(where, "average_score", p.average_score, c.average_score, close);
    field(where, "rating", p.rating, c.rating, (a, b) => a?.system === b?.system && close(a?.mu, b?.mu) && close(a?.sigma, b?.sigma));
  }
  const pairs = Math.max(page.pairs?.length ?? 0, cli.pairs?.length ?? 0);
  for (let i = 0; i < pairs; i++) {
    const [p, c] = [page.pairs?.[i], cli.pairs?.[i]];
    const where = `pair ${i + 1} (${p ? label([p.bot, p.vs]) : "?"})`;
    if (!p || !c) {
      out.push(`${where}: only in the ${p ? "page" : "CLI"}`);
      continue;
    }
    for (const key of ["bot", "vs", "matches", "wins", "draws", "losses"]) field(where, key, p[key], c[key]);
    for (const key of ["average_score", "vs_average_score", "score_rate", "interval_95"]) field(where, key, p[key], c[key], closeAll);
  }
  return out;
}

export async function classCliChecks({ dist, check = defaultCheck }) {
  const running = new Set();
  // The CLI first: a build that fails need not wait for the page's arena.
  const botplay = await withinLimit("building the CLI (cargo build -p botplay)", "cargo", 900_000, () => botplayBinary(givenBotplay(), running))
    .finally(() => stopGroups(running));
  const { url, context, page, close } = await openSession(dist, "class-cli", { launchOptions: { acceptDownloads: true } });
  const files = await mkdtemp(join(tmpdir(), "botplay-class-cli-files-"));
  try {
    const shot = (path) => page.screenshot({ path, fullPage: true });
    const starter = await readFile(join(REPO, "www", "starter", `${GAME}.js`), "utf8");
    const pyStarter = await readFile(join(REPO, "www", "starter", `${GAME}.py`), "utf8");
    // Ben shoots the driest enemy in range instead of the wettest.
    const ben = edit(starter, ".sort((a, b) => b.wetness - a.wetness)", ".sort((a, b) => a.wetness - b.wetness)", "Ben");
    // Dan reads its fifth turn's input in full, then throws.
    let dan = edit(starter, "while (true) {", "let turn = 0;\nwhile (true) {", "Dan");
    dan = edit(
      dan,
      "const myAgentCount = parseInt(readline());",
      `const myAgentCount = parseInt(readline());\n  turn += 1;\n  if (turn === ${CRASH_TURN}) throw new Error("Dan gives up in turn " + turn);`,
      "Dan",
    );
    const classFile = {
      kind: "botplay-class",
      format: 1,
      name: "Year 9 C",
      setup: { game: GAME, ruleset: RULESET, seed: SEED, seats: 2 },
      relaxed: true,
      matches_per_group: PER_PAIR,
      bots: [
        { name: "Cleo", pseudonym: "Amber Otter", bot: { kind: "code", name: "Cleo", language: "python", code: pyStarter } },
        { name: "Gauntlet", bot: { kind: "builtin", name: "soaker" } },
      ],
    };
    const students = [
      ["Ada", starter],
      ["Ben", ben],
      ["Dan", dan],
    ];
    const expectedBots = [
      ...classFile.bots,
      ...students.map(([name, code]) => ({ name, bot: { kind: "code", name, language: "javascript", code } })),
    ];
    const names = expectedBots.map((b) => b.name);
    const total = expectedPlan(names.length, SEED).length;

    await withinLimit("(cc1) the class opened from a class file and three share links", "chromium", 120_000, async () => {
      await page.goto(url);
      await page.locator(`#games .game-choice[data-game="${GAME}"]`).click();
      await page.locator("#arena > summary").click();
      const file = join(files, "year-9-c.json");
      await writeFile(file, JSON.stringify(classFile, null, 2));
      await page.locator("#class-open").setInputFiles(file);
      await page.locator(".class-bot").nth(1).waitFor({ timeout: 10_000 });
      await page.locator("#class-links").fill(students.map(([name, code]) => shareLink(url, name, code)).join("\n"));
      await page.locator("#class-add-links").click();
      await page.locator(".class-bot").nth(4).waitFor({ timeout: 10_000 });
      const shown = await page.locator(".class-bot-name").evaluateAll((inputs) => inputs.map((i) => i.value));
      check(JSON.stringify(shown) === JSON.stringify(names), `(cc1) the class's bots: ${JSON.stringify(shown)}, not ${JSON.stringify(names)}`);
      const error = page.locator("#class-error");
      check((await error.count()) === 0, `(cc1) the class roster says: ${await error.innerText().catch(() => "")}`);
      console.log(`ok (cc1) a class file and three share links make the class ${shown.join(", ")}`);
    }, shot);

    await withinLimit("(cc2) the class's arena in the page", "chromium", 600_000, async () => {
      // The class's set-up in the form and the panel: its league, budgets, seed and matches.
      await page.locator("#league").selectOption(RULESET);
      await setRelaxed(page, true);
      for (const box of await page.locator("input.arena-bot").all()) {
        const inClass = names.includes(await box.getAttribute("value"));
        if ((await box.isChecked()) !== inClass) await box.click();
      }
      await page.locator("#arena-matches").selectOption(String(PER_PAIR));
      // One match at a time: deterministic bots, and a light load beside the CLI's later run.
      await page.locator("#arena-parallel").selectOption("1");
      await page.locator("#arena-seed").fill(String(SEED));
      const button = (await page.locator("#arena-run").innerText()).trim();
      check(button === `Run ${total} matches`, `(cc2) the page plans '${button}', not ${total} matches`);
      await page.locator("#arena-run").click();
      await page.locator("#arena-progress", { hasText: `done: ${total} matches` }).waitFor({ timeout: 560_000 * TIME_SCALE });
      const error = page.locator("#arena-error");
      check((await error.count()) === 0, `(cc2) the arena says: ${await error.innerText().catch(() => "")}`);
      const failed = await page.locator(".arena-matches p.warning").allInnerTexts();
      check(failed.length === 0, `(cc2) matches not played: ${failed.join("; ")}`);
      console.log(`ok (cc2) the page played the class's ${total} matches, one at a time`);
    }, shot);

    const classPath = join(files, "class-saved.json");
    let pageJson;
    await withinLimit("(cc3) the page's JSON and class file", "chromium", 60_000, async () => {
      const [json] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-json").click()]);
      pageJson = JSON.parse(await readFile(await json.path(), "utf8"));
      await writeFile(join(files, "page.json"), JSON.stringify(pageJson, null, 2));
      const [saved] = await Promise.all([page.waitForEvent("download"), page.locator("#class-save").click()]);
      const savedText = await readFile(await saved.path(), "utf8");
      await writeFile(classPath, savedText);
      const savedClass = JSON.parse(savedText);
      for (const key of ["kind", "format", "setup", "relaxed", "matches_per_group"]) {
        check(JSON.stringify(savedClass[key]) === JSON.stringify(classFile[key]),
          `(cc3) the saved class's ${key} is ${JSON.stringify(savedClass[key])}, not ${JSON.stringify(classFile[key])}`);
      }
      const shape = (b) => ({ name: b.name, pseudonym: b.pseudonym ?? "", bot: b.bot });
      const bots = (savedClass.bots ?? []).map(shape);
      check(JSON.stringify(bots) === JSON.stringify(expectedBots.map(shape)),
        `(cc3) the saved class's bots are ${JSON.stringify(bots.map((b) => [b.name, b.bot.kind, b.bot.language ?? b.bot.name]))}, not the class's`);
      // The JSON is of the class's set-up, and its matches are the class's plan.
      const setup = [pageJson.game, pageJson.ruleset, pageJson.seed, pageJson.players, pageJson.matches_per_group, pageJson.relaxed];
      const wanted = [GAME, RULESET, SEED, 2, PER_PAIR, true];
      check(JSON.stringify(setup) === JSON.stringify(wanted), `(cc3) the page's JSON is of ${JSON.stringify(setup)}, not the class's ${JSON.stringify(wanted)}`);
      check(JSON.stringify(pageJson.bots.map((b) => b.name)) === JSON.stringify(names), `(cc3) the page's JSON names ${pageJson.bots.map((b) => b.name)}`);
      check(pageJson.planned === total && pageJson.played === total && !pageJson.interrupted,
        `(cc3) the page's JSON: ${pageJson.played} of ${pageJson.planned} planned matches played, not ${total}`);
      const plan = expectedPlan(names.length, SEED);
      const got = pageJson.matches.map((m) => ({ match: m.match, seed: m.seed, bots: m.bots }));
      for (let k = 0; k < Math.max(plan.length, got.length); k++) {
        check(JSON.stringify(got[k]) === JSON.stringify(plan[k]),
          `(cc3) the page's match ${k + 1} is ${JSON.stringify(got[k])}, the plan's ${JSON.stringify(plan[k])}`);
      }
      console.log(`ok (cc3) the page saved the class it opened; its JSON holds the class's plan (${total} matches on seed ${plan[0].seed})`);
    }, shot);

    await withinLimit("(cc4) the crashing bot's matches in the page", "chromium", 60_000, async () => {
      const dan = names.indexOf("Dan") + 1;
      for (const m of pageJson.matches) {
        const seat = m.bots.indexOf(dan) + 1;
        const faults = m.faults.map((f) => `${f.kind} of seat ${f.seat} in turn ${f.turn}`);
        const wanted = seat > 0 ? [`crash of seat ${seat} in turn ${CRASH_TURN}`] : [];
        check(JSON.stringify(faults) === JSON.stringify(wanted),
          `(cc4) match ${m.match} (${m.bots.map((b) => names[b - 1]).join(" vs ")}): the page's JSON has the faults ${JSON.stringify(faults)}, not ${JSON.stringify(wanted)}`);
      }
      // The viewer numbers the crash as the JSON does.
      await page.locator(".arena-matches > summary").click();
      const item = page.locator("#arena-match-list li", { hasText: "Dan" }).first();
      const number = Number(await item.getAttribute("value"));
      await item.locator(".arena-watch").click();
      const fault = page.locator("#outcome .fault", { hasText: "Dan" }).first();
      await fault.waitFor({ timeout: 30_000 });
      const text = await fault.innerText();
      const shown = Number(/\(turn (\d+)\)\s*$/.exec(text)?.[1]);
      const inJson = pageJson.matches.find((m) => m.match === number)?.faults?.[0]?.turn;
      check(shown === CRASH_TURN && shown === inJson,
        `(cc4) match ${number}: the viewer says '${text}', the page's JSON turn ${inJson}; the bot crashed in its turn ${CRASH_TURN}`);
      console.log(`ok (cc4) Dan crashes in turn ${CRASH_TURN} in each of its matches, as the viewer ("${text}") and the JSON say`);
    }, shot);

    await withinLimit("(cc5) the CLI on the page's class file", "botplay", 300_000, async () => {
      const out = join(files, "cli.json");
      const args = ["arena", "--class", classPath, "--json", out, "--jobs", "1"];
      const ran = await run(botplay, args, running);
      check(ran.code === 0, `(cc5) botplay ${args.join(" ")} ended with ${ran.code}:\n${ran.stderr}`);
      const cliJson = JSON.parse(await readFile(out, "utf8"));
      // The comparison sees a changed score and a fault more (it is not blind).
      const tampered = structuredClone(cliJson);
      tampered.matches[0].scores[0] += 1;
      tampered.matches.at(-1).faults.push({ kind: "timeout", seat: 1, text: "", turn: 1 });
      const seen = differences(pageJson, tampered);
      check(seen.some((d) => d.startsWith("match 1 ") && d.includes("scores")) && seen.some((d) => d.startsWith(`match ${total} `) && d.includes("faults")),
        `(cc5) the comparison misses a changed score or a fault more: ${JSON.stringify(seen)}`);
      const found = differences(pageJson, cliJson);
      if (found.length > 0) {
        await mkdir(SHOTS, { recursive: true });
        await writeFile(join(SHOTS, "class-cli-page.json"), JSON.stringify(pageJson, null, 2));
        await writeFile(join(SHOTS, "class-cli-cli.json"), JSON.stringify(cliJson, null, 2));
      }
      check(found.length === 0,
        `(cc5) the CLI's table differs from the page's in ${found.length} places (both JSONs: tests/e2e/screenshots/class-cli-page.json and class-cli-cli.json):\n  ${found.slice(0, 40).join("\n  ")}`);
      console.log(`ok (cc5) botplay arena --class on the page's class file: the same ${cliJson.played} matches (seeds, seats, scores, ranks, faults), standings and pairs as the page`);
    });
  } finally {
    await stopGroups(running);
    await close();
    await rm(files, { recursive: true, force: true }).catch(() => {});
  }
}

runAlone(import.meta.url, classCliChecks, "class-cli checks");

// A teacher's class in the Arena panel (src/app/class_roster.rs, src/app/arena_panel.rs), in
// Debian's Chromium through playwright-core:
//
//   node tests/e2e/class.mjs [--dist dist]
//
// (cl1) Six students' share links (made here as the page makes them: one student's code bot
//       against a built-in bot, named by the student), pasted at once, and a bot file chosen
//       from disk: seven named bots in the class, kept across a reload.
// (cl2) The class's round-robin (each pair once in each seating, on one seed): a crashing bot
//       and a looping bot fault only their own matches, with their names in the table; every
//       match is played.
// (cl3) The standings and pairs as CSV: a name with a comma and quotes is quoted as RFC 4180
//       says, and the rows are the table's; the results as `botplay arena --json` writes them,
//       opened again in the panel.
// (cl4) A class link carries the class to a fresh browser; a class file is saved and opened.
// (cl5) A student's match opens in the viewer from the list of matches played (checked before
//       (cl3) opens the JSON, which names the replays' files but does not hold them).
// (cl6) The results wall at 1280 × 720: every text at least 24 px, nothing outside the screen,
//       the pseudonyms given in (cl1) shown (the names on request), the top 3 ranked and the
//       others listed unranked (the matrix then not offered), the head-to-head matrix of 7 × 7
//       cells; Esc closes it.
// (cl7) A click on a student's name lists their 12 matches with their faults (turn and reason);
//       a match's share link opens that match in a fresh browser; a match opened from the list is
//       taken over from its first turn, every seat offered "as recorded" (the page knows each
//       bot's code), and played on.
// (cl8) Every replay as one zip: 42 files named with their number, bots and seed, each a replay.
// (cl9) Stop, reload, go on: an arena of three bots (12 matches) stopped after its third match
//       is shown again after a reload, stopped, with the replays of the matches played (kept in
//       IndexedDB: one is watched), and *Go on* plays the rest; the results as JSON hold all 12
//       matches, the first ones as they were played before the reload; the zip all 12 replays.
// Screenshots: tests/e2e/screenshots/class.png, wall-standings.png, wall-matrix.png,
// class-record.png.

import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { unzipSync } from "fflate";
import { defaultCheck, launch, openSession, runAlone, starterCode, studentLink, withinLimit } from "./browser.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");
const GAME = "ice-and-fire";

/** A student's share link, as the page makes it. */
const shareLink = (base, name, code, language = "javascript") =>
  studentLink(base, { game: GAME, ruleset: "league-4" }, name, code, language);

export async function classChecks({ dist, check = defaultCheck }) {
  const { url, context, page, close } = await openSession(dist, "class", { launchOptions: { acceptDownloads: true } });
  const files = await mkdtemp(join(tmpdir(), "botplay-class-files-"));
  try {
    const shot = (path) => page.screenshot({ path, fullPage: true });
    const starter = await starterCode(`${GAME}.js`);
    const pyStarter = await starterCode(`${GAME}.py`);
    const students = [
      ["Smith, \"Ace\" Ada", starter, "javascript"],
      ["Noor", starter, "javascript"],
      ["Lena", pyStarter, "python"],
      ["Crasher", "readline(); throw new Error('oops');", "javascript"],
      ["Looper", "readline(); while (true) {}", "javascript"],
      ["Tom", starter.replace(/console\.log\(/, "console.error('hi'); console.log("), "javascript"],
    ];

    await withinLimit("(cl1) a class from six links and a file", "chromium", 120_000, async () => {
      await page.goto(url);
      await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
      await page.locator("#arena > summary").click();
      const links = students.map(([name, code, language]) => shareLink(url, name, code, language));
      await page.locator("#class-links").fill(links.join("\n"));
      await page.locator("#class-add-links").click();
      const file = join(files, "Omar.js");
      await writeFile(file, starter);
      await page.locator("#class-files").setInputFiles(file);
      await page.locator(".class-bot").nth(6).waitFor({ timeout: 10_000 });
      const names = await page.locator(".class-bot-name").evaluateAll((inputs) => inputs.map((i) => i.value));
      check(JSON.stringify(names) === JSON.stringify([...students.map((s) => s[0]), "Omar"]), `(cl1) the class's bots: ${JSON.stringify(names)}`);
      await page.locator("#class-name").fill("Year 10 B");
      await page.reload();
      await page.locator("#arena > summary").click();
      await page.locator(".class-bot").nth(6).waitFor({ timeout: 10_000 });
      check((await page.locator("#class-name").inputValue()) === "Year 10 B", "(cl1) the class's name was not kept");
      await page.locator("#class-pseudonyms").click();
      const pseudonyms = await page.locator(".class-bot-pseudonym").evaluateAll((inputs) => inputs.map((i) => i.value));
      check(pseudonyms.length === 7 && pseudonyms.every((p) => /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(p)), `(cl1) pseudonyms: ${pseudonyms}`);
      check(new Set(pseudonyms).size === 7, `(cl1) pseudonyms repeat: ${pseudonyms}`);
      console.log("ok (cl1) six links and a bot file make a class of seven named bots, kept across a reload");
    }, shot);

    await withinLimit("(cl2) the class's round-robin", "chromium", 600_000, async () => {
      // Only the class's bots: untick the person's own and the built-in ones.
      for (const box of await page.locator("input.arena-bot").all()) {
        const name = await box.getAttribute("value");
        const inClass = [...students.map((s) => s[0]), "Omar"].includes(name);
        if ((await box.isChecked()) !== inClass) await box.click();
      }
      await page.locator("#arena-matches").selectOption("2");
      // One match at a time: on a loaded 2-core machine, a looping bot's second of computing
      // beside an honest bot's 50 ms turns is a test of the machine, not of the class.
      await page.locator("#arena-parallel").selectOption("1");
      await page.locator("#arena-seed").fill("11");
      await page.locator("#arena-run").click();
      await page.locator("#arena-progress", { hasText: "done: 42 matches" }).waitFor({ timeout: 560_000 });
      const rows = await page.locator("#arena-bots-table tbody tr").allInnerTexts();
      check(rows.length === 7, `(cl2) ${rows.length} rows in the standings`);
      const row = (name) => rows.find((r) => r.startsWith(name)) ?? "";
      const cells = (name) => row(name).split("\t");
      // Columns: bot, rating, won, drawn, lost, avg score, timeouts, crashes, invalid.
      check(Number(cells("Crasher")[7]) >= 6, `(cl2) the crashing bot's row: ${row("Crasher")}`);
      check(Number(cells("Looper")[6]) >= 6, `(cl2) the looping bot's row: ${row("Looper")}`);
      for (const honest of ["Noor", "Omar", "Tom"]) {
        check(Number(cells(honest)[6]) + Number(cells(honest)[7]) === 0, `(cl2) ${honest} faulted: ${row(honest)}`);
      }
      console.log(`ok (cl2) 42 matches played; ${row("Crasher").replace(/\t/g, " ")} · ${row("Looper").replace(/\t/g, " ")}`);
    }, shot);

    await withinLimit("(cl5) a student's match in the viewer", "chromium", 60_000, async () => {
      await page.locator(".arena-matches > summary").click();
      const item = page.locator("#arena-match-list li", { hasText: "Noor" }).first();
      await item.locator(".arena-watch").click();
      await page.locator("#turn-label").waitFor();
      const status = await page.locator("#match-status").innerText();
      check(/arena match/.test(status), `(cl5) the viewer shows: ${status}`);
      await mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, "class.png"), fullPage: true });
      console.log("ok (cl5) a student's match opens in the viewer");
    }, shot);

    await withinLimit("(cl6) the results wall at 1280 × 720", "chromium", 60_000, async () => {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.locator("#arena-wall").scrollIntoViewIfNeeded();
      await page.locator("#arena-wall").click();
      const wall = page.locator("#results-wall");
      await wall.waitFor({ timeout: 10_000 });
      const measure = () => wall.evaluate((root) => {
        const texts = [...root.querySelectorAll("h2, p, th, td, button, select, label")];
        const small = texts.filter((e) => e.textContent.trim() && parseFloat(getComputedStyle(e).fontSize) < 24);
        return {
          smallest: Math.min(...texts.map((e) => parseFloat(getComputedStyle(e).fontSize))),
          small: small.map((e) => `${e.tagName} ${e.textContent.trim().slice(0, 20)}`),
          fits: root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth,
        };
      });
      let sizes = await measure();
      check(sizes.small.length === 0, `(cl6) text under 24 px on the wall: ${sizes.small}`);
      check(sizes.fits, "(cl6) the standings do not fit 1280 × 720");
      let shown = await page.locator("#wall-standings tbody th").allInnerTexts();
      check(shown.length === 7 && !shown.includes("Noor"), `(cl6) the wall shows names, not pseudonyms: ${shown}`);
      await page.screenshot({ path: join(SHOTS, "wall-standings.png") });
      await page.locator("#wall-names").click();
      shown = await page.locator("#wall-standings tbody th").allInnerTexts();
      check(shown.includes("Noor"), `(cl6) the names are not shown on request: ${shown}`);
      await page.locator("#wall-top").selectOption("3");
      check((await page.locator("#wall-standings tbody tr").count()) === 3, "(cl6) the top 3 are not the only ranks");
      const also = await page.locator("#wall-unranked").innerText();
      check(also.split(",").length === 4, `(cl6) the unranked bots: ${also}`);
      check(await page.locator("#wall-matrix-view").isDisabled(), "(cl6) the matrix is offered while ranks are hidden");
      await page.locator("#wall-top").selectOption("0");
      await page.locator("#wall-matrix-view").click();
      const cells = await page.locator("#wall-matrix tbody td").count();
      check(cells === 49, `(cl6) ${cells} cells in the matrix`);
      sizes = await measure();
      check(sizes.small.length === 0 && sizes.fits, `(cl6) the matrix: small text ${sizes.small}, fits ${sizes.fits}`);
      await page.screenshot({ path: join(SHOTS, "wall-matrix.png") });
      await page.keyboard.press("Escape");
      if (await wall.count()) await page.keyboard.press("Escape"); // the first left full screen
      await wall.waitFor({ state: "detached", timeout: 5_000 });
      await page.setViewportSize({ width: 1366, height: 768 });
      console.log(`ok (cl6) the results wall: text of ${sizes.smallest} px and more, pseudonyms, top 3, a 7 × 7 matrix`);
    }, shot);

    await withinLimit("(cl7) a student's record, a match's link, a take-over", "chromium", 180_000, async () => {
      await page.locator("#arena-bots-table .arena-record-open", { hasText: "Crasher" }).click();
      const record = page.locator("#bot-record");
      await record.waitFor({ timeout: 5_000 });
      const matches = record.locator(".record-match");
      check((await matches.count()) === 12, `(cl7) Crasher's record holds ${await matches.count()} matches`);
      const told = await matches.allInnerTexts();
      check(told.filter((t) => /^seed -?\d+: lost against /.test(t)).length >= 10, `(cl7) Crasher's results: ${told.slice(0, 2)}`);
      const faults = await record.locator(".record-fault").allInnerTexts();
      check(faults.length >= 12 && faults.every((f) => /^(\S.*): .* at turn \d+: /.test(f)), `(cl7) the faults: ${faults.slice(0, 3)}`);
      // Against Looper seated first, Looper's timeout ends the match before Crasher plays.
      check(faults.filter((f) => f.startsWith("Crasher: crash at turn ")).length >= 10, `(cl7) Crasher's crashes: ${faults.slice(0, 3)}`);
      await matches.first().locator(".record-link-button").click();
      const link = await matches.first().locator(".record-link").inputValue();
      check(link.includes("#b1."), `(cl7) no share link: ${link.slice(0, 80)}`);
      await record.screenshot({ path: join(SHOTS, "class-record.png") });
      const other = await launch(await mkdtemp(join(tmpdir(), "botplay-class-student-")));
      try {
        const student = other.pages()[0] ?? (await other.newPage());
        await student.goto(link);
        await student.locator("#outcome .result").waitFor({ timeout: 30_000 });
        const faultsThere = await student.locator("#faults li").allInnerTexts();
        check(faultsThere.length >= 1, "(cl7) the linked match shows no fault");
      } finally {
        await other.close();
      }
      await matches.nth(1).locator(".record-watch").click();
      await page.locator("#turn-label").waitFor();
      await page.locator("#first").click();
      await page.locator("#take-over-open").click();
      for (const seat of [0, 1]) {
        const options = await page.locator(`#take-over-seat-${seat} option`).allInnerTexts();
        check(options.some((o) => o.startsWith("as recorded: ")), `(cl7) seat ${seat} cannot be played as recorded: ${options}`);
      }
      await page.locator("#take-over-start").click();
      await page.locator("#match-origin", { hasText: "Taken over" }).waitFor({ timeout: 120_000 });
      await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      console.log(`ok (cl7) Crasher's 12 matches with their faults; a match's link (${link.length} characters) opens elsewhere; a match taken over`);
    }, shot);

    await withinLimit("(cl8) every replay as one zip", "chromium", 60_000, async () => {
      const [zip] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-zip").click()]);
      check(/^botplay-arena-ice-and-fire-11-replays\.zip$/.test(zip.suggestedFilename()), `(cl8) the zip's name: ${zip.suggestedFilename()}`);
      const entries = unzipSync(new Uint8Array(await readFile(await zip.path())));
      const names = Object.keys(entries);
      check(names.length === 42, `(cl8) ${names.length} files in the zip`);
      check(names.every((n) => /^match-00\d\d_.+_vs_.+_seed-\d+\.json$/.test(n)), `(cl8) file names: ${names.slice(0, 3)}`);
      check(names.some((n) => n.includes("Noor")), `(cl8) no file names Noor: ${names.slice(0, 3)}`);
      for (const name of names) {
        const replay = JSON.parse(new TextDecoder().decode(entries[name]));
        check(replay.setup?.game === "ice-and-fire" && Array.isArray(replay.turns), `(cl8) ${name} is not a replay`);
      }
      console.log(`ok (cl8) ${names.length} replays in one zip, such as ${names[0]}`);
    }, shot);

    await withinLimit("(cl3) the standings and pairs as CSV", "chromium", 60_000, async () => {
      const [standings] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-standings-csv").click()]);
      const text = await readFile(await standings.path(), "utf8");
      const lines = text.trim().split("\n");
      check(lines[0].startsWith("rank,bot,matches,wins"), `(cl3) the header: ${lines[0]}`);
      check(lines.length === 8, `(cl3) ${lines.length} lines of standings`);
      check(text.includes('"Smith, ""Ace"" Ada"'), `(cl3) the quoted name is missing: ${text}`);
      const [pairs] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-pairs-csv").click()]);
      const pairLines = (await readFile(await pairs.path(), "utf8")).trim().split("\n");
      check(pairLines.length === 1 + 21, `(cl3) ${pairLines.length - 1} pairs`);
      // The results as `botplay arena --json` writes them, opened again in the panel.
      const [json] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-json").click()]);
      const results = JSON.parse(await readFile(await json.path(), "utf8"));
      check(results.played === 42 && results.matches.length === 42, `(cl3) the JSON holds ${results.played} matches`);
      check(results.bots.map((b) => b.name).includes('Smith, "Ace" Ada'), `(cl3) the JSON's bots: ${results.bots.map((b) => b.name)}`);
      const file = join(files, "results.json");
      await writeFile(file, JSON.stringify(results));
      await page.locator("#arena-open").setInputFiles(file);
      await page.locator("#arena-progress", { hasText: "done: 42 matches" }).waitFor({ timeout: 10_000 });
      check((await page.locator("#arena-bots-table tbody tr").count()) === 7, "(cl3) the opened JSON's table");
      console.log(`ok (cl3) standings (${lines.length - 1} bots) and pairs (${pairLines.length - 1}) as CSV, names quoted; the JSON of the results, opened again`);
    }, shot);

    await withinLimit("(cl4) a class link and a class file", "chromium", 120_000, async () => {
      await page.locator("#class-make-link").click();
      const link = await page.locator("#class-link").inputValue();
      check(link.includes("#c1."), `(cl4) no class link: ${link}`);
      const [saved] = await Promise.all([page.waitForEvent("download"), page.locator("#class-save").click()]);
      const file = join(files, "class.json");
      await writeFile(file, await readFile(await saved.path()));
      const savedClass = JSON.parse(await readFile(file, "utf8"));
      check(savedClass.setup.seed === 11 && savedClass.matches_per_group === 2, `(cl4) the class file does not say the arena run: seed ${savedClass.setup.seed}, ${savedClass.matches_per_group} per pair`);
      const other = await launch(await mkdtemp(join(tmpdir(), "botplay-class-other-")));
      try {
        const fresh = other.pages()[0] ?? (await other.newPage());
        await fresh.goto(link);
        await fresh.locator(".class-bot").nth(6).waitFor({ timeout: 30_000 });
        check((await fresh.locator("#class-name").inputValue()) === "Year 10 B", "(cl4) the link's class has another name");
        check((await fresh.locator("#arena-seed").inputValue()) === "11", "(cl4) the class link's arena seed is not the panel's");
        check((await fresh.locator("#arena-matches").inputValue()) === "2", "(cl4) the class link's matches per pair are not the panel's");
        // Empty it, then open the saved file: the seven bots are back.
        for (let i = 0; i < 7; i++) await fresh.locator(".class-bot-remove").first().click();
        check((await fresh.locator(".class-bot").count()) === 0, "(cl4) the class was not emptied");
        await fresh.locator("#class-open").setInputFiles(file);
        await fresh.locator(".class-bot").nth(6).waitFor({ timeout: 10_000 });
      } finally {
        await other.close();
      }
      console.log(`ok (cl4) a class link (${link.length} characters) and a class file carry the class`);
    }, shot);

    await withinLimit("(cl9) an arena stopped, the page reloaded, the arena gone on with", "chromium", 300_000, async () => {
      const three = ["Noor", "Omar", "Tom"];
      for (const box of await page.locator("input.arena-bot").all()) {
        const name = await box.getAttribute("value");
        if ((await box.isChecked()) !== three.includes(name)) await box.click();
      }
      await page.locator("#arena-matches").selectOption("4");
      await page.locator("#arena-seed").fill("23");
      await page.locator("#arena-run").click();
      await page.locator("#arena-progress", { hasText: /playing: [3-9] of 12/ }).waitFor({ timeout: 120_000 });
      await page.locator("#arena-stop").click();
      await page.locator("#arena-progress", { hasText: "stopped" }).waitFor({ timeout: 30_000 });
      const before = Number((await page.locator("#arena-progress").innerText()).match(/stopped: (\d+)/)[1]);
      check(before >= 3 && before < 12, `(cl9) stopped after ${before} matches`);
      const [first] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-json").click()]);
      const played = JSON.parse(await readFile(await first.path(), "utf8"));
      check(played.interrupted === true, "(cl9) the stopped arena's JSON is not marked interrupted");
      await page.reload();
      await page.locator("#arena > summary").click();
      await page.locator("#arena-progress", { hasText: `stopped: ${before} of 12` }).waitFor({ timeout: 10_000 });
      // The replays played before the reload, kept by the browser: each to watch.
      await page.locator("#arena-zip", { hasText: `All ${before} replays` }).waitFor({ timeout: 10_000 });
      await page.locator(".arena-matches > summary").click();
      // The list is drawn once opened.
      await page.locator("#arena-match-list").waitFor({ timeout: 10_000 });
      check((await page.locator("#arena-match-list .arena-watch").count()) === before, `(cl9) after the reload, not ${before} matches to watch`);
      await page.locator("#arena-match-list .arena-watch").first().click();
      await page.locator("#match-status").getByText(/arena match \d+/).waitFor({ timeout: 10_000 });
      if (!(await page.locator("#arena-resume").isVisible())) await page.locator("#arena > summary").click();
      await page.locator("#arena-resume").click();
      await page.locator("#arena-progress", { hasText: "done: 12 matches" }).waitFor({ timeout: 240_000 });
      const [zip] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-zip").click()]);
      const zipped = Object.keys(unzipSync(new Uint8Array(await readFile(await zip.path()))));
      check(zipped.length === 12, `(cl9) the zip after the reload holds ${zipped.length} replays, not 12`);
      const [last] = await Promise.all([page.waitForEvent("download"), page.locator("#arena-json").click()]);
      const whole = JSON.parse(await readFile(await last.path(), "utf8"));
      check(whole.played === 12 && whole.matches.length === 12 && !whole.interrupted, `(cl9) the whole arena: ${whole.played} played, interrupted ${whole.interrupted}`);
      for (const m of played.matches) {
        const again = whole.matches.find((w) => w.match === m.match);
        check(JSON.stringify(again) === JSON.stringify(m), `(cl9) match ${m.match} changed across the reload`);
      }
      await page.reload();
      await page.locator("#arena > summary").click();
      check((await page.locator("#arena-resume").count()) === 0, "(cl9) a finished arena is offered to go on with");
      console.log(`ok (cl9) an arena stopped after ${before} of 12 matches, reloaded (its ${before} replays kept: watched, zipped with the rest), gone on with to the end`);
    }, shot);

  } finally {
    await close();
    await rm(files, { recursive: true, force: true }).catch(() => {});
  }
}

runAlone(import.meta.url, classChecks, "class checks");

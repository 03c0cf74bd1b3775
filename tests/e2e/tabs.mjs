// Nothing typed is lost (issue #10), in Debian's Chromium through playwright-core.
//
//   trunk build --release --skip-version-check --dist dist-tabs
//   node tests/e2e/tabs.mjs [--dist dist]
//
// (w) A share link with code, opened while different code is saved: the link's code is shown
//     with a banner that says the person's own code is kept; the saved code is untouched (also
//     after editing the link's code, which is kept apart with the link, and after a reload) until
//     the person chooses. "Back to my code" brings it back; "Use the link's code as mine" asks
//     first (Cancel changes nothing), then makes the link's code theirs and keeps their previous
//     code under "Earlier versions", from where "Put back" brings it back; a reload keeps it.
// (x) Two tabs of the same browser on the same game, typing in turn (for real, with the
//     keyboard): each tab is told when the other changed the code it shows ("Load the other
//     tab's code" / "Keep this tab's code", both tried); every version typed in either tab is
//     afterwards the saved code or in the history, and an earlier one is put back from the page.
// (y) A tab closed abruptly (no beforeunload), and a tab whose renderer crashed (CDP
//     `Page.crash`): a new tab shows the code as typed up to the end.
//
// Screenshots: tests/e2e/screenshots/tabs-link-code.png, tabs-other-tab.png,
// tabs-earlier-versions.png. Called from run.mjs (`tabsChecks({ dist, check, SHOTS })`) or alone.

import { mkdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCheck, openPlayground, openSession, runAlone, watchProblems } from "./browser.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const KEY = "botplay/ice-and-fire/bot1/javascript";


async function getCode(page) {
  await page.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
  return page.evaluate(() => botplayEditor.get("bot-code").getDoc());
}

async function setCode(page, code) {
  await page.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
  await page.evaluate((c) => botplayEditor.get("bot-code").paste(c), code);
}

// Types at the end of the editor's text with the keyboard, as a person does.
async function typeAtEnd(page, text) {
  await page.bringToFront();
  await page.locator("#bot-code .cm-content").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type(text);
}

const stored = (page, key = KEY) => page.evaluate((k) => localStorage.getItem(k), key);
const history = (page, key = KEY) =>
  page.evaluate((k) => JSON.parse(localStorage.getItem(k + "/history") ?? "[]").map((version) => version.code), key);

async function open(page, url) {
  await openPlayground(page, url);
  await page.locator("#bot-code .cm-content").waitFor({ timeout: 30_000 });
}

export async function tabsChecks({ dist, check = defaultCheck, SHOTS = join(REPO, "tests", "e2e", "screenshots") }) {
  const { url, context, page, problems, close } = await openSession(dist, "tabs", { label: "first tab" });
  try {
    const watch = (other, label) => watchProblems(other, problems, { label });
    await mkdir(SHOTS, { recursive: true });
    await open(page, url);
    const starter = await readFile(join(REPO, "www", "starter", "ice-and-fire.js"), "utf8");

    // (w) A link made from a match of the link's code; then the person's own code is saved.
    const linkCode = "// the link's bot\n" + starter;
    const mine = "// my own bot\n" + starter;
    await setCode(page, linkCode);
    if (!(await page.locator("#relaxed").isChecked())) await page.locator("#relaxed").click();
    await page.locator("#run").click();
    await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
    const played = (await page.locator("#outcome .result").innerText()).trim();
    await page.locator("#make-link").click();
    const link = await page.locator("#share-link").inputValue();
    check(link.includes("#b1."), `(w) no share link: '${link}'`);
    await setCode(page, mine);
    check((await stored(page)) === mine, "(w) the person's code is not saved as typed");

    await page.goto(link);
    await page.reload();
    await page.locator("#link-code").waitFor({ timeout: 30_000 });
    const banner = await page.locator("#link-code").innerText();
    check(/This is the code from the link\. Your own code is kept\./.test(banner), `(w) the banner says '${banner}'`);
    check((await getCode(page)) === linkCode, "(w) the link's code is not in the editor");
    check((await stored(page)) === mine, "(w) opening the link changed the saved code");
    check((await page.locator("#outcome .result").innerText()).trim() === played, "(w) the link's match is not shown");
    await page.locator("#link-code").screenshot({ path: join(SHOTS, "tabs-link-code.png") });
    // Edits to the link's code are kept apart, with the link.
    const editedLink = linkCode + "// edited while looking at the link\n";
    await setCode(page, editedLink);
    await page.reload();
    await page.locator("#link-code").waitFor({ timeout: 30_000 });
    check((await getCode(page)) === editedLink, "(w) edits to the link's code are lost on reload");
    check((await stored(page)) === mine, "(w) editing the link's code changed the saved code");
    // Run plays the code shown.
    await page.locator("#run").click();
    await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 120_000 });
    check((await stored(page)) === mine, "(w) running the link's code changed the saved code");
    // Back to my code.
    await page.locator("#back-to-my-code").click();
    check((await page.locator("#link-code").count()) === 0, "(w) the banner stays after 'Back to my code'");
    check((await getCode(page)) === mine, "(w) 'Back to my code' did not bring the person's code back");
    await open(page, url);
    check((await getCode(page)) === mine, "(w) a reload after 'Back to my code' lost the person's code");
    // Use the link's code as mine: asked first; Cancel changes nothing.
    await page.goto(link);
    await page.reload();
    await page.locator("#link-code").waitFor({ timeout: 30_000 });
    check((await getCode(page)) === editedLink, "(w) the link's code, edited, is not back when the link is opened again");
    await page.locator("#use-link-code").click();
    const question = await page.locator("#link-code-question").innerText();
    check(/Replace your saved code/.test(question), `(w) 'Use the link's code as mine' did not ask: '${question}'`);
    check((await stored(page)) === mine, "(w) asking changed the saved code");
    await page.locator("#cancel-link-code").click();
    check((await stored(page)) === mine && (await page.locator("#link-code").count()) === 1, "(w) Cancel changed something");
    await page.locator("#use-link-code").click();
    await page.locator("#confirm-link-code").click();
    check((await page.locator("#link-code").count()) === 0, "(w) the banner stays after the link's code became the person's");
    check((await stored(page)) === editedLink, "(w) confirming did not make the link's code the saved code");
    check((await history(page)).includes(mine), "(w) the person's previous code is not in the history");
    await open(page, url);
    check((await getCode(page)) === editedLink, "(w) a reload lost the code taken from the link");
    // Put back from Earlier versions.
    await page.locator("#earlier-versions-1 summary").click();
    const item = page.locator("#earlier-versions-1 li.version").filter({ hasText: "line 1: // my own bot" });
    await item.first().waitFor({ timeout: 10_000 }).catch(() => {});
    check((await item.count()) === 1, `(w) Earlier versions does not list the person's code: '${await page.locator("#earlier-versions-1").innerText()}'`);
    await item.locator("button.put-back").click();
    check((await getCode(page)) === mine && (await stored(page)) === mine, "(w) 'Put back' did not bring the person's code back");
    check((await history(page)).includes(editedLink), "(w) putting back lost the code it replaced");
    await page.reload();
    check((await getCode(page)) === mine, "(w) a reload after 'Put back' lost the code");
    console.log("ok (w) a link's code never replaces the saved code unasked: banner, edits kept apart, Back to my code, Use as mine (asked), Put back");

    // (x) Two tabs on the same game, typing in turn.
    const one = page;
    const two = await context.newPage();
    watch(two, "second tab");
    await open(two, url);
    check((await getCode(two)) === mine, "(x) the second tab does not show the saved code");
    const notice = (p) => p.locator("#other-tab-1");
    await typeAtEnd(one, "// typed in tab one\n");
    const v1 = await getCode(one);
    await notice(two).waitFor({ timeout: 10_000 });
    check((await getCode(two)) === mine, "(x) another tab's typing replaced this tab's code unasked");
    await typeAtEnd(two, "// typed in tab two\n");
    const v2 = await getCode(two);
    check((await stored(two)) === v2 && (await history(two)).includes(v1), "(x) tab two's typing lost tab one's version");
    check((await notice(two).count()) === 0, "(x) the notice stays in tab two after it typed on");
    await notice(one).waitFor({ timeout: 10_000 });
    check((await getCode(one)) === v1, "(x) tab one's code was replaced unasked");
    await notice(one).screenshot({ path: join(SHOTS, "tabs-other-tab.png") });
    // Keep this tab's code: tab two's version goes into the history; tab two is told.
    await one.locator("#keep-this-tab-1").click();
    check((await stored(one)) === v1 && (await history(one)).includes(v2), "(x) 'Keep this tab's code' lost a version");
    check((await notice(one).count()) === 0, "(x) the notice stays after 'Keep this tab's code'");
    await notice(two).waitFor({ timeout: 10_000 });
    // Load the other tab's code: tab two's own version stays in the history.
    await two.locator("#load-other-tab-1").click();
    check((await getCode(two)) === v1, "(x) 'Load the other tab's code' did not load it");
    check((await notice(two).count()) === 0, "(x) the notice stays after loading the other tab's code");
    check((await history(two)).includes(v2), "(x) loading the other tab's code lost this tab's");
    // And on, in turn.
    await typeAtEnd(one, "// tab one again\n");
    const v3 = await getCode(one);
    await notice(two).waitFor({ timeout: 10_000 });
    await typeAtEnd(two, "// tab two again\n");
    const v4 = await getCode(two);
    await notice(one).waitFor({ timeout: 10_000 });
    const now = await stored(one);
    const kept = await history(one);
    for (const [name, version] of [["v1", v1], ["v2", v2], ["v3", v3], ["v4", v4]]) {
      check(now === version || kept.includes(version), `(x) ${name}, typed in a tab, is lost: saved '${now}', history ${JSON.stringify(kept)}`);
    }
    // Any of them back from the page.
    await one.locator("#earlier-versions-1 summary").click();
    await one.locator("#earlier-versions-1 li.version").first().waitFor({ timeout: 10_000 });
    const listed = await one.locator("#earlier-versions-1 li.version").count();
    await one.locator("#earlier-versions-1").screenshot({ path: join(SHOTS, "tabs-earlier-versions.png") });
    await one.locator("#earlier-versions-1 li.version").nth(1).locator("button.put-back").click();
    const back = await getCode(one);
    check([v1, v2, v3].includes(back) && (await stored(one)) === back, "(x) 'Put back' did not bring an earlier version back");
    check((await history(one)).includes(v4), "(x) putting back lost the version it replaced");
    console.log(`ok (x) two tabs typing in turn: each is told, both choices keep the other version, ${listed} earlier versions listed, nothing typed is lost`);
    await two.close();

    // (y) A tab closed without beforeunload, then one whose renderer crashes.
    const closing = await context.newPage();
    watch(closing, "closed tab");
    await open(closing, url);
    await typeAtEnd(closing, "// typed just before the tab closed\n");
    const beforeClose = await getCode(closing);
    await closing.close({ runBeforeUnload: false });
    await open(one, url);
    check((await getCode(one)) === beforeClose, "(y) code typed just before the tab closed is lost");
    const crashing = await context.newPage();
    await open(crashing, url);
    await typeAtEnd(crashing, "// typed just before the crash\n");
    const beforeCrash = await getCode(crashing);
    const crashed = new Promise((done) => crashing.once("crash", done));
    const cdp = await context.newCDPSession(crashing);
    cdp.send("Page.crash").catch(() => {});
    await crashed;
    const reopened = await context.newPage();
    watch(reopened, "reopened tab");
    await open(reopened, url);
    check((await getCode(reopened)) === beforeCrash, "(y) code typed just before the crash is lost");
    console.log("ok (y) a tab closed abruptly and a crashed tab keep the code typed up to the end");

    check(problems.length === 0, `(w, x, y) errors:\n  ${problems.join("\n  ")}`);
  } finally {
    await close();
  }
}

runAlone(import.meta.url, tabsChecks, "nothing-typed-is-lost checks");

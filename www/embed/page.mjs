// Writes the embed view into a built site (Trunk's staging folder): embed.html, made from the
// built index.html so that it loads the very same app (Trunk's hashed file names), plus its own
// start script and style sheet. Called by www/editor/sw.mjs (Trunk's post_build hook) before it
// lists the site's files, so that the service worker knows and caches these too.
//
// embed.html differs from index.html in five ways: `<html data-view="embed">` (the app shows the
// embed view, src/app/embed.rs), embed-boot.js instead of boot.js (no isolation, no service
// worker), no code editor, embed.css after the page's style sheet, and the policy of its
// `<meta>` made the embed view's (no worker, no blob: or inline script: on a host that sends no
// headers it is the only policy). Its headers differ too (www/trunk-headers.mjs `embedHeaders`):
// other sites may frame it.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EMBED_PAGE, embedPolicy } from "../trunk-headers.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/** One replacement that must apply, or the build stops saying what changed. */
function replaceOnce(html, pattern, replacement, what) {
  if (!pattern.test(html)) {
    throw new Error(`www/embed/page.mjs: the built index.html has no ${what}; update page.mjs to match index.html`);
  }
  return html.replace(pattern, replacement);
}

/** Writes embed.html, embed-boot.js and embed.css into `staging`. */
export async function writeEmbedView(staging) {
  let html = await readFile(join(staging, "index.html"), "utf8");
  html = replaceOnce(html, /<html\b([^>]*)>/, '<html$1 data-view="embed">', "<html> tag");
  html = replaceOnce(
    html,
    /(<script\b[^>]*\bsrc="[^"]*?)boot\.js("[^>]*\bdata-app-js=)/,
    "$1embed-boot.js$2",
    "script tag starting boot.js with data-app-js (Trunk.toml pattern_script)",
  );
  html = replaceOnce(
    html,
    /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/,
    (_, before, policy, after) => before + embedPolicy(policy) + after,
    "<meta> Content-Security-Policy",
  );
  html = replaceOnce(html, /<title>[^<]*<\/title>/, "<title>botplay: a match</title>", "<title>");
  // The code editor has nothing to do here (185 KiB not fetched).
  html = html.replace(/<script defer src="[^"]*editor\.js"><\/script>\s*/, "");
  // index.html's comments describe the playground; this page says what it is instead.
  html = html.replace(/<!--[\s\S]*?-->\s*/g, "");
  html = replaceOnce(
    html,
    /<head>/,
    "<head>\n    <!-- botplay's embed view: written from index.html after each build by www/embed/page.mjs. -->",
    "<head>",
  );
  html = replaceOnce(html, /<\/head>/, '<link rel="stylesheet" href="./embed.css" />\n</head>', "</head>");
  await writeFile(join(staging, EMBED_PAGE), html);
  await copyFile(join(here, "boot.js"), join(staging, "embed-boot.js"));
  await copyFile(join(here, "style.css"), join(staging, "embed.css"));
}

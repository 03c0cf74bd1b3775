// Run by Trunk's post_build hook (see Trunk.toml), once the whole site is in Trunk's staging
// folder: writes the service worker (www/coi-sw.js) into it as `coi-sw.js`, filled in with
// - HEADERS: the `[serve.headers]` of Trunk.toml, which it adds on hosts that cannot send them,
//   and EMBED_HEADERS, those of the embed view (www/trunk-headers.mjs `embedHeaders`), which
//   it writes into the site first (www/embed/page.mjs);
// - MANIFEST: every file of the site (cached when the worker installs), the ones with Trunk's
//   content hash in their names (served from the cache first), Pyodide's files (cached once a
//   Python bot loads them), and versions made from the files' contents. A new build with any
//   changed file gets a new version, hence a new worker and a new cache; an unchanged build
//   gets the same worker byte for byte, and browsers keep their copy.
//
//   node www/editor/sw.mjs [STAGING_DIR]     (default: $TRUNK_STAGING_DIR)
import { createHash } from "node:crypto";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { embedHeaders, trunkHeaders } from "../trunk-headers.mjs";
import { writeEmbedView } from "../embed/page.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const WORKER = "coi-sw.js";
const PYODIDE_DIR = "pyodide/";
// Trunk's hashed outputs: app-0123456789abcdef.js, app-0123456789abcdef_bg.wasm, style-….css.
const HASHED = /-[0-9a-f]{16}(_bg)?\.(js|wasm|css)$/;
// What the page fetches only when a person asks for what it does: the rules pages and their
// pictures, the editor's Python mode, the zip of an arena's replays, a link's QR code, the
// TypeScript and WebAssembly runtimes, the store of an arena's replays, the embed view. The
// worker caches these once the page has been idle a while (boot.js), not at install: a first
// visit fetches only what its first match needs.
const LATER = [
  /\.png$/,
  /^rules\//,
  /^(zip|qr|typescript|wasm-bot-worker|replay-store|embed-boot|editor-python)\.js$/,
  /^embed\.(html|css)$/,
];

const staging = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("sw.mjs: no staging folder (TRUNK_STAGING_DIR or an argument)");

/** Every file under `dir`, as paths relative to `root` with "/" separators. */
async function files(dir, root = dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // A symbolic link counts as what it points to.
    const kind = entry.isSymbolicLink() ? await stat(path) : entry;
    if (kind.isDirectory()) found.push(...(await files(path, root)));
    else if (kind.isFile()) found.push(relative(root, path).split(sep).join("/"));
  }
  return found.sort();
}

/** A short version for a set of files: a hash of their names and contents (and of `extra`). */
async function version(paths, extra = "") {
  const all = createHash("sha256").update(extra);
  for (const path of paths) {
    const content = createHash("sha256").update(await readFile(join(staging, path))).digest("hex");
    all.update(`${path}\0${content}\n`);
  }
  return all.digest("hex").slice(0, 16);
}

// The embed view is part of the site: written before the files are listed.
await writeEmbedView(staging);
const site = (await files(staging)).filter((path) => path !== WORKER);
const pyodide = site.filter((path) => path.startsWith(PYODIDE_DIR));
const app = site.filter((path) => !path.startsWith(PYODIDE_DIR));
if (!app.includes("index.html")) throw new Error(`sw.mjs: ${staging} holds no index.html`);
const template = await readFile(join(repo, "www", WORKER), "utf8");
const manifest = {
  // The worker's own code is part of the version: a changed worker gets a fresh cache.
  version: await version(app, template),
  app,
  immutable: app.filter((path) => HASHED.test(path)),
  later: app.filter((path) => LATER.some((pattern) => pattern.test(path))),
  pyodide: { version: await version(pyodide), files: pyodide },
};

const headersAt = "/* HEADERS */ {}";
const embedHeadersAt = "/* EMBED_HEADERS */ {}";
const manifestAt = /\/\* MANIFEST \*\/ .*;$/m;
if (!template.includes(headersAt) || !template.includes(embedHeadersAt) || !manifestAt.test(template)) {
  throw new Error(`sw.mjs: www/${WORKER} lacks its HEADERS, EMBED_HEADERS or MANIFEST placeholder`);
}
const headers = trunkHeaders(repo);
const worker = template
  .replace(headersAt, JSON.stringify(headers, null, 2))
  .replace(embedHeadersAt, JSON.stringify(embedHeaders(headers), null, 2))
  .replace(manifestAt, `${JSON.stringify(manifest, null, 2)};`);
await writeFile(join(staging, WORKER), worker);
console.log(`sw.mjs: ${WORKER} version ${manifest.version}, ${app.length} files (${manifest.immutable.length} hashed, ${manifest.later.length} cached later), Pyodide ${manifest.pyodide.version} (${pyodide.length} files)`);

// Run by Trunk's pre_build hook (see Trunk.toml), before each build of the page:
// - bundles the editor (editor.js and CodeMirror from node_modules) into target/editor/editor.js,
//   the arena's zip maker (zip.js and fflate) into target/editor/zip.js, and the links' QR
//   codes (qr.js and qrcode-generator) into target/editor/qr.js;
// - copies the Python runtime (Pyodide, from node_modules) into target/pyodide/.
// - copies the service worker's template (www/coi-sw.js) to target/editor/coi-sw.js.
// index.html copies them into the page. The service worker is filled in after the build, in the
// built site, by sw.mjs (Trunk's post_build hook), when the site's files are known.
import { build } from "esbuild";
import { copyFile, mkdir, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
await build({
  entryPoints: [join(here, "editor.js")],
  outfile: join(repo, "target", "editor", "editor.js"),
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2022",
  legalComments: "linked",
  logLevel: "warning",
});

// The scripts the page fetches only when asked for: the zip maker of the arena's "all replays"
// (fflate) and the QR code of a link (qrcode-generator).
for (const script of ["zip.js", "qr.js"]) {
  await build({
    entryPoints: [join(here, script)],
    outfile: join(repo, "target", "editor", script),
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2022",
    legalComments: "linked",
    logLevel: "warning",
  });
}

// Pyodide: only the files a worker loads. Copied when missing or changed in size.
const PYODIDE_FILES = ["pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const from = join(repo, "node_modules", "pyodide");
const to = join(repo, "target", "pyodide");
await mkdir(to, { recursive: true });
for (const file of PYODIDE_FILES) {
  const source = await stat(join(from, file));
  const copy = await stat(join(to, file)).catch(() => null);
  if (!copy || copy.size !== source.size) await copyFile(join(from, file), join(to, file));
}

// The service worker's template, for index.html's copy-file; sw.mjs fills in the built copy.
await copyFile(join(repo, "www", "coi-sw.js"), join(repo, "target", "editor", "coi-sw.js"));

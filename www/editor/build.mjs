// Run by Trunk's pre_build hook (see Trunk.toml), before each build of the page:
// - bundles the editor (editor.js and CodeMirror from node_modules) into target/editor/editor.js;
// - copies the Python runtime (Pyodide, from node_modules) into target/pyodide/.
// - writes the service worker that adds the page's headers on static hosts (target/editor/coi-sw.js),
//   with the headers of Trunk.toml.
// index.html copies them into the page.
import { build } from "esbuild";
import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { trunkHeaders } from "../trunk-headers.mjs";
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

// The service worker, with the headers `trunk serve` sends.
const worker = await readFile(join(repo, "www", "coi-sw.js"), "utf8");
await writeFile(
  join(repo, "target", "editor", "coi-sw.js"),
  worker.replace("/* HEADERS */ {}", JSON.stringify(trunkHeaders(repo), null, 2)),
);

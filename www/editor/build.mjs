// Bundles the editor (editor.js and CodeMirror from node_modules) into target/editor/editor.js,
// which index.html copies into the page. Run by Trunk's pre_build hook (see Trunk.toml).
import { build } from "esbuild";
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

// The `[serve.headers]` of Trunk.toml (cross-origin isolation and the Content-Security-Policy):
// the one place they are written. `trunk serve` sends them; www/editor/build.mjs puts them into
// the service worker that adds them on static hosts; the browser tests' server sends them.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The `[serve.headers]` of `<repo>/Trunk.toml`, as a plain object. */
export function trunkHeaders(repo) {
  const text = readFileSync(join(repo, "Trunk.toml"), "utf8");
  const headers = {};
  let inHeaders = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      inHeaders = line === "[serve.headers]";
      continue;
    }
    const m = inHeaders && line.match(/^"?([A-Za-z0-9-]+)"?\s*=\s*"(.*)"\s*$/);
    if (m) headers[m[1]] = m[2].replace(/\\"/g, '"');
  }
  for (const name of ["Cross-Origin-Opener-Policy", "Cross-Origin-Embedder-Policy"]) {
    if (!headers[name]) throw new Error(`Trunk.toml [serve.headers] lacks ${name}`);
  }
  return headers;
}

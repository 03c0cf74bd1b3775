// The `[serve.headers]` of Trunk.toml (cross-origin isolation and the Content-Security-Policy):
// the one place they are written. `trunk serve` sends them; www/editor/build.mjs puts them into
// the service worker that adds them on static hosts; the browser tests' server sends them.
// The embed view (embed.html) gets headers made from these (`embedHeaders`), the one page other
// sites may frame.
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

/** The embed view's page (src/app/embed.rs, written by www/embed/page.mjs). */
export const EMBED_PAGE = "embed.html";

/**
 * The embed view's headers, made from the page's (`trunkHeaders`): the same, except that
 * - any web page may frame it (`frame-ancestors *` instead of `'none'`): it shows a recorded
 *   match and nothing else, with no code editor, no storage of value and no button that acts
 *   on anything but the playback;
 * - it may start no worker and run no `blob:` script, nor the match host's inline script: it
 *   plays a record back and runs no bot, so its policy says so;
 * - a page that is cross-origin isolated itself may frame it
 *   (`Cross-Origin-Resource-Policy: cross-origin`; its own COEP is already there).
 * Its COOP is kept: a browser ignores it in a frame, and applies it when the view is opened alone.
 */
export function embedHeaders(headers) {
  const policy = headers["Content-Security-Policy"];
  if (!policy || !/(^|;)\s*frame-ancestors 'none'\s*(;|$)/.test(policy)) {
    throw new Error("Trunk.toml [serve.headers] Content-Security-Policy lacks frame-ancestors 'none'");
  }
  return {
    ...headers,
    "Content-Security-Policy": embedPolicy(policy),
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
}

/** The embed view's Content-Security-Policy made from the page's: `frame-ancestors *` (where the
 * page's has the directive: a `<meta>` policy cannot), `worker-src 'none'`, and `script-src`
 * without `blob:` or hashes (the match host's inline script). */
export function embedPolicy(policy) {
  return policy
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((directive) => {
      const [name, ...values] = directive.split(/\s+/);
      if (name === "frame-ancestors") return "frame-ancestors *";
      if (name === "worker-src") return "worker-src 'none'";
      if (name === "script-src") {
        return [name, ...values.filter((v) => v !== "blob:" && !v.startsWith("'sha256-"))].join(" ");
      }
      return directive;
    })
    .join("; ");
}

/** The headers of the file at `path` (relative to the site's folder): the embed view's or the
 * page's. */
export function headersFor(path, headers, embed = embedHeaders(headers)) {
  return path === EMBED_PAGE ? embed : headers;
}

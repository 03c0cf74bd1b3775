// A tiny static server for the built page (dist/), with the headers the page needs: cross-origin
// isolation (COOP/COEP, for the bots' SharedArrayBuffer) and the Content-Security-Policy, both
// read from Trunk.toml's [serve.headers] so that tests see what `trunk serve` sends.
//
//   node tests/e2e/serve.mjs [--dist dist] [--port 8080] [--lazy]
//
// `cargo xtask serve` runs it beside `trunk serve` for the embed view's headers (xtask/src/serve.rs).

import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { embedHeaders, headersFor, trunkHeaders as readTrunkHeaders } from "../../www/trunk-headers.mjs";
import { extname, join, normalize, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
  ".zip": "application/zip",
};

/** The `[serve.headers]` of Trunk.toml, as a plain object. */
export function trunkHeaders(repo = REPO) {
  return readTrunkHeaders(repo);
}

/** Serves `dist` on 127.0.0.1 at `port` (0: any free port); resolves to { server, url }. With
 * `plain`, no special header is sent, as on a static host that cannot set headers. The embed
 * view (embed.html) gets its own headers (www/trunk-headers.mjs `embedHeaders`): other sites may
 * frame it, never the page. With `sameHeaders`, every response has those instead (hostile.mjs:
 * the page with or without its policy). `asked`, when given, gets the address of each request. */
export async function serve(dist, port = 0, { plain = false, lazy = false, sameHeaders = null, asked = null } = {}) {
  const root = resolve(dist);
  // `lazy`: the page is built after the server starts (cargo xtask serve, beside `trunk serve`).
  await stat(join(root, "index.html")).catch(() => {
    if (!lazy) throw new Error(`${root}/index.html not found: build the page first (trunk build --release --dist ${dist})`);
  });
  const headers = sameHeaders ?? (plain ? {} : trunkHeaders());
  const embed = sameHeaders ?? (plain ? {} : embedHeaders(headers));
  const server = createServer(async (req, res) => {
    asked?.push(req.url);
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end("forbidden");
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, {
        "Cross-Origin-Resource-Policy": "same-origin",
        ...headersFor(relative(root, file).split(sep).join("/"), headers, embed),
        "Content-Type": MIME[extname(file)] ?? "application/octet-stream",
        "Cache-Control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch {
      res.writeHead(404, { ...headers, "Content-Type": "text/plain" }).end("not found");
    }
  });
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const lazy = process.argv.includes("--lazy");
  const { url } = await serve(resolve(REPO, arg("--dist", "dist")), Number(arg("--port", 8080)), { lazy });
  console.log(`serving ${url}`);
}

// botplay's service worker. www/boot.js registers it on every visit; www/editor/sw.mjs writes
// it into the built site after each build (Trunk's post_build hook), filling in HEADERS (the
// `[serve.headers]` of Trunk.toml) and MANIFEST (the files of this build and a version made
// from their contents). It does two things:
//
// 1. Headers. On a static host that cannot send headers it adds the ones `trunk serve` sends:
//    cross-origin isolation, which the bots' blocking readline() needs (SharedArrayBuffer), and
//    the Content-Security-Policy, which also covers the bot workers. Responses from the cache
//    get them too. The embed view (EMBED_PAGE) gets EMBED_HEADERS instead: the page's, except
//    that other sites may frame it (www/trunk-headers.mjs `embedHeaders`). A host that sends cross-origin isolation itself (a
//    Cross-Origin-Embedder-Policy header) is left in charge: its responses pass unchanged.
// 2. Offline. Installing caches every file of the build (the page, its WebAssembly and
//    JavaScript, the style sheet, the editor, the bot workers) in one cache named after the
//    build's version; activating deletes the caches of other versions. The page and the files
//    whose names do not change between builds are fetched from the network first, so that a new
//    deploy is seen at once, and from the cache when the network fails; files with a content
//    hash in their names (Trunk's) are served from the cache. Pyodide's files are cached the
//    first time a Python bot loads them (in a cache named after Pyodide's files), then served
//    from there. A page that asks ({type: "status"} with a MessagePort) learns whether the build
//    and Pyodide are cached and whether its own document came from the cache.
// 3. The bots' input where the browser gives no SharedArrayBuffer (WebKitGTK as shipped): the
//    match host (www/match-host.js, in the page) sends {type: "botplay-io", tokens} with a
//    MessagePort, on which the match worker then posts [token, text] for each bot's input; a
//    bot's runtime (www/js-bot-worker.js) blocks in a synchronous GET of botplay-io/<token>,
//    answered here with all the text waiting for that token as soon as there is some (204 after
//    IO_WAIT_MS without any: the runtime asks again; `?hold` always waits that long). A token is
//    a random secret per bot and match, known only to the host, the match worker and that bot's
//    runtime; {type: "botplay-io-end", tokens} forgets them. As JupyterLite answers Python's
//    input() in the browser.
"use strict";

const HEADERS = /* HEADERS */ {};
const EMBED_HEADERS = /* EMBED_HEADERS */ {};
const EMBED_PAGE = "embed.html";
const MANIFEST = /* MANIFEST */ { version: "unbuilt", app: [], immutable: [], later: [], pyodide: { version: "unbuilt", files: [] } };

// The folder the site is served from (the worker's scope, ending in "/"): caches are per scope,
// so that two copies of botplay on one origin leave each other's caches alone.
const SCOPE = self.registration.scope;
const SCOPE_PATH = new URL(SCOPE).pathname;
const PREFIX = "botplay-";
const APP_CACHE = `${PREFIX}app-${MANIFEST.version} ${SCOPE}`;
const PYODIDE_CACHE = `${PREFIX}pyodide-${MANIFEST.pyodide.version} ${SCOPE}`;
const APP = new Set(MANIFEST.app);
// Fetched by the page only when a person asks for what they do: cached when the page says it
// has been idle a while ("botplay-cache-later"), not at install.
const LATER = new Set(MANIFEST.later);
// What a first visit needs: cached at install.
const CORE = MANIFEST.app.filter((path) => !LATER.has(path));
const IMMUTABLE = new Set(MANIFEST.immutable);
const PYODIDE = new Set(MANIFEST.pyodide.files);
// Statuses whose responses have no body.
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

// The pages (clients) whose document this worker served from the cache, because the network
// failed: they are working offline.
const fromCache = new Set();

// The bots' input (3. above): per token, the text not yet fetched and the request waiting.
const IO_PATH = "botplay-io/";
const IO_WAIT_MS = 20000;
const inputs = new Map();

/** The answer to a bot's request for its input. */
async function answerInput(token, hold) {
  const plain = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
  // A request may come before the host's message that opens its token: it waits as any other.
  if (!inputs.has(token)) inputs.set(token, { text: "", wake: null });
  const box = inputs.get(token);
  if (hold || !box.text) {
    await new Promise((done) => {
      const timer = setTimeout(done, IO_WAIT_MS);
      if (!hold) {
        box.wake = () => {
          clearTimeout(timer);
          done();
        };
      }
    });
    if (!hold) box.wake = null;
  }
  if (hold || !box.text) return new Response(null, { status: 204, headers: plain });
  const text = box.text;
  box.text = "";
  return new Response(text, { status: 200, headers: plain });
}

function openInputs(tokens, port) {
  for (const token of tokens) {
    if (typeof token === "string" && !inputs.has(token)) inputs.set(token, { text: "", wake: null });
  }
  port.onmessage = (event) => {
    const [token, text] = Array.isArray(event.data) ? event.data : [];
    const box = inputs.get(token);
    if (!box || typeof text !== "string" || !tokens.includes(token)) return;
    box.text += text;
    box.wake?.();
  };
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(
    (async () => {
      // Both caches exist from the start (Pyodide's fills only once a Python bot runs).
      await caches.open(PYODIDE_CACHE);
      const cache = await caches.open(APP_CACHE);
      // Straight from the server, not from the browser's HTTP cache: one build, all of it.
      await cache.addAll(CORE.map((path) => new Request(new URL(path, SCOPE), { cache: "reload" })));
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        const ours = name.startsWith(PREFIX) && name.endsWith(` ${SCOPE}`);
        if (ours && name !== APP_CACHE && name !== PYODIDE_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return;
  const path = url.pathname.startsWith(SCOPE_PATH) ? url.pathname.slice(SCOPE_PATH.length) : null;
  // The site's folder itself is its index.html.
  const key = path === "" ? "index.html" : path;
  if (key !== null && key.startsWith(IO_PATH) && request.method === "GET") {
    event.respondWith(answerInput(key.slice(IO_PATH.length), url.search === "?hold"));
    return;
  }
  let response;
  if (request.method !== "GET" || key === null || request.headers.has("range")) {
    response = fetch(request);
  } else if (PYODIDE.has(key)) {
    response = cacheFirst(event, PYODIDE_CACHE, key, true);
  } else if (IMMUTABLE.has(key)) {
    response = cacheFirst(event, APP_CACHE, key, false);
  } else {
    response = networkFirst(event, key);
  }
  const headers = key === EMBED_PAGE ? EMBED_HEADERS : HEADERS;
  event.respondWith(response.then((r) => withHeaders(r, headers)));
});

/** One of this version's caches, or null once a newer version has deleted it: only installing
 * creates a cache (`caches.open` would bring a deleted one back, empty). */
async function existing(cacheName) {
  return (await caches.has(cacheName)) ? caches.open(cacheName) : null;
}

/** From the cache; on a miss from the network, then kept in the cache when `keep`. */
async function cacheFirst(event, cacheName, key, keep) {
  const cache = await existing(cacheName);
  const cached = await cache?.match(new URL(key, SCOPE));
  if (cached) return cached;
  const response = await fetch(event.request);
  if (cache && keep && response.status === 200 && response.type === "basic") {
    // Stored while the response streams to the page.
    const copy = response.clone();
    event.waitUntil(
      (async () => {
        await cache.put(new URL(key, SCOPE), copy);
        if (await cachedAll(cache, PYODIDE)) await tellPages();
      })(),
    );
  }
  return response;
}

/** From the network; from this build's cache when the network fails. */
async function networkFirst(event, key) {
  try {
    return await fetch(event.request);
  } catch (error) {
    const cached = APP.has(key) && (await (await existing(APP_CACHE))?.match(new URL(key, SCOPE)));
    if (!cached) throw error;
    if (event.request.mode === "navigate" && event.resultingClientId) fromCache.add(event.resultingClientId);
    return cached;
  }
}

/** The response with `ours` added, unless the host sends cross-origin isolation itself. */
function withHeaders(response, ours) {
  if (response.status === 0 || response.type === "opaque" || response.type === "opaqueredirect") return response;
  const headers = new Headers(response.headers);
  if (!headers.has("Cross-Origin-Embedder-Policy")) {
    for (const [name, value] of Object.entries(ours)) {
      if (!headers.has(name)) headers.set(name, value);
    }
  }
  // A new response also drops the "redirected" mark of a cached page, which a navigation refuses.
  return new Response(NULL_BODY.has(response.status) ? null : response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** Whether the cache holds every file of `paths`. */
async function cachedAll(cache, paths) {
  if (!cache) return false;
  const held = new Set((await cache.keys()).map((r) => r.url));
  return [...paths].every((path) => held.has(new URL(path, SCOPE).href));
}

/** Caches the files kept for later that the cache lacks, then tells the pages. */
async function cacheLater() {
  const cache = await existing(APP_CACHE);
  if (!cache) return;
  const held = new Set((await cache.keys()).map((r) => r.url));
  const missing = [...LATER].filter((path) => !held.has(new URL(path, SCOPE).href));
  if (missing.length === 0) return;
  await cache.addAll(missing.map((path) => new Request(new URL(path, SCOPE), { cache: "reload" })));
  await tellPages();
}

/** Tells the open pages that what is cached changed (they ask for the status again). */
async function tellPages() {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    client.postMessage({ type: "botplay-offline-changed" });
  }
}

self.addEventListener("message", (event) => {
  const port = event.ports[0];
  if (event.data?.type === "botplay-io" && port && Array.isArray(event.data.tokens)) {
    return openInputs(event.data.tokens, port);
  }
  if (event.data?.type === "botplay-io-end" && Array.isArray(event.data.tokens)) {
    for (const token of event.data.tokens) inputs.get(token)?.wake?.();
    for (const token of event.data.tokens) inputs.delete(token);
    return;
  }
  if (event.data?.type === "botplay-cache-later") return event.waitUntil(cacheLater().catch(() => {}));
  if (event.data?.type !== "status" || !port) return;
  event.waitUntil(
    (async () => {
      const cache = await existing(APP_CACHE);
      const app = await cachedAll(cache, CORE);
      const later = await cachedAll(cache, LATER);
      const pyodide = await cachedAll(await existing(PYODIDE_CACHE), PYODIDE);
      const clientId = event.source?.id;
      port.postMessage({ version: MANIFEST.version, app, later, pyodide, fromCache: fromCache.has(clientId) });
    })(),
  );
});

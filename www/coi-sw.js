// botplay's service worker, for static hosts that cannot send headers: it adds to every response
// of this site the headers `trunk serve` sends (Trunk.toml [serve.headers]): cross-origin
// isolation, which the bots' blocking readline() needs (SharedArrayBuffer), and the
// Content-Security-Policy, which also covers the bot workers. www/boot.js registers it only
// when the page is not isolated. It caches nothing and changes no body.
"use strict";

const HEADERS = /* HEADERS */ {};

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.cache === "only-if-cached" && request.mode !== "same-origin") return;
  event.respondWith(
    fetch(request).then((response) => {
      if (response.status === 0 || response.type === "opaque") return response;
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(HEADERS)) {
        if (!headers.has(name)) headers.set(name, value);
      }
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }),
  );
});

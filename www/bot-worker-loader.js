// Starts the built-in bots' worker (src/bin/bot_worker.rs, built by Trunk as bot_worker.js and
// bot_worker_bg.wasm). Messages that arrive while the WebAssembly is still loading are kept and
// handed to the bot's own handler once it is installed, so that none is lost. A failure to load
// is rethrown outside the promise, where the page sees it as the worker's `error` event.
"use strict";

importScripts("./bot_worker.js");

const early = [];
self.onmessage = (event) => early.push(event);

wasm_bindgen({ module_or_path: "./bot_worker_bg.wasm" }).then(
  () => {
    const handler = self.onmessage;
    for (const event of early) handler.call(self, event);
  },
  (error) => {
    setTimeout(() => {
      throw error;
    });
  },
);

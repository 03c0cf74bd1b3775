// The match host: where one match's referee and bots run, away from the page (src/match_host).
//
// The page (src/runner.rs) puts this script, unchanged, into a frame of its own,
// <iframe sandbox="allow-scripts" allow="cross-origin-isolated" srcdoc="<script>…">, which
// Chromium runs in a process apart from the page's: a bot that exhausts memory takes down that
// process, never the page. The page's Content-Security-Policy allows this script by its SHA-256
// (Trunk.toml, index.html; tests/csp.rs checks both). Where the frame cannot have shared memory,
// the page loads the same script itself (match-host.js) and the match runs in workers of the
// page's own process.
//
// It answers a window message {type: "botplay-match-host"} that carries a MessagePort, first
// with {type: "hello", isolated} (whether shared memory works here), then serves one match on
// that port:
//   page -> host  {type: "start", start, seats: [{kind, code}], files}
//                   start: the JSON the match worker reads (src/match_host/mod.rs HostStart);
//                   kind: "javascript", "python", "builtin" or "human"; files: {matchJs,
//                   matchWasm, runtime, pyodide: {name: ArrayBuffer} | null}
//                 {type: "stop"}, {type: "human", seat, lines}, {type: "end"}
//   host -> page  {type: "news", json} (src/match_host/mod.rs HostNews), and every 100 ms
//                 {type: "alive", running} (a bit per seat computing now)
// Workers are started from blob: URLs of the texts the page sent (a sandboxed frame has no
// origin of its own to load them from). The match worker gets the shared memory; the bots'
// workers get their two rings and the doorbell, and nothing else: they have no channel to this
// script, and their errors are written into the control ring here.
"use strict";

(() => {
  const RING_BYTES = 16 + (1 << 20);
  const KIND = { stop: 20, human: 21, workerError: 22 };
  const encoder = new TextEncoder();

  const blobUrl = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));

  // The writing side of the control ring (records as in src/match_host/rings.rs).
  function controlWriter(buffer, bell) {
    const header = new Int32Array(buffer, 0, 4);
    const data = new Uint8Array(buffer, 16);
    const capacity = data.length;
    const head = new Uint8Array(16);
    const stamp = new Float64Array(head.buffer, 8, 1);
    const copy = (at, bytes) => {
      for (let done = 0; done < bytes.length; ) {
        const offset = (at + done) & (capacity - 1);
        const run = Math.min(bytes.length - done, capacity - offset);
        data.set(bytes.subarray(done, done + run), offset);
        done += run;
      }
    };
    return (kind, seat, text) => {
      const payload = encoder.encode(text);
      const write = Atomics.load(header, 0) >>> 0;
      const used = (write - (Atomics.load(header, 1) >>> 0)) >>> 0;
      if (capacity - used < 16 + payload.length) return; // the match worker is gone
      head.fill(0);
      head[0] = kind;
      new DataView(head.buffer).setUint32(4, payload.length, true);
      stamp[0] = seat;
      copy(write, head);
      copy((write + 16) >>> 0, payload);
      Atomics.store(header, 0, (write + 16 + payload.length) | 0);
      Atomics.add(bell, 0, 1);
      Atomics.notify(bell, 0);
    };
  }

  function serve(port) {
    const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
    port.postMessage({ type: "hello", isolated });
    const bots = [];
    let matchWorker = null;
    let heartbeat = 0;
    const end = () => {
      clearInterval(heartbeat);
      for (const worker of bots) worker?.terminate();
      bots.length = 0;
      matchWorker?.terminate();
      matchWorker = null;
    };
    port.onmessage = (event) => {
      const message = event.data;
      if (!message || typeof message !== "object") return;
      if (message.type === "start" && isolated && !heartbeat) start(message);
      else if (message.type === "stop") control?.(KIND.stop, 0, "");
      else if (message.type === "human") {
        control?.(KIND.human, Number(message.seat) | 0, String(message.lines));
      } else if (message.type === "end") end();
    };
    let control = null;

    function start({ start, seats, files }) {
      const doorbell = new SharedArrayBuffer(16);
      const bell = new Int32Array(doorbell);
      const controlRing = new SharedArrayBuffer(RING_BYTES);
      control = controlWriter(controlRing, bell);
      const rings = seats.map((seat) =>
        seat.kind === "javascript" || seat.kind === "python"
          ? [new SharedArrayBuffer(RING_BYTES), new SharedArrayBuffer(RING_BYTES)]
          : null,
      );
      heartbeat = setInterval(() => {
        port.postMessage({ type: "alive", running: Atomics.load(bell, 1) });
      }, 100);
      const runtime = blobUrl(files.runtime);
      seats.forEach((seat, index) => {
        if (!rings[index]) return;
        const worker = new Worker(runtime, { name: `bot ${index + 1}` });
        worker.onerror = (event) => {
          event.preventDefault();
          const text = event.message || "the bot's worker failed to load or stopped with an error";
          control(KIND.workerError, index, text);
        };
        bots[index] = worker;
        worker.postMessage({
          type: "start",
          language: seat.kind,
          code: seat.code,
          input: rings[index][0],
          output: rings[index][1],
          doorbell,
          files: seat.kind === "python" ? files.pyodide : null,
        });
      });
      // The match worker: wasm-bindgen's glue (the global `wasm_bindgen`), then its start.
      const starter = `
        self.onmessage = (event) => {
          self.onmessage = null;
          const { wasm, match } = event.data;
          wasm_bindgen({ module_or_path: wasm }).then(
            () => self.onmessage(new MessageEvent("message", { data: match })),
            (error) => postMessage(JSON.stringify({ type: "failed", why: "the match worker could not start: " + error })),
          );
        };`;
      matchWorker = new Worker(blobUrl(files.matchJs + "\n" + starter), { name: "match" });
      matchWorker.onmessage = (event) => {
        if (typeof event.data === "string") port.postMessage({ type: "news", json: event.data });
        else if (typeof event.data === "number") {
          bots[event.data]?.terminate();
          bots[event.data] = null;
        }
      };
      matchWorker.onerror = (event) => {
        event.preventDefault();
        const why = "the match worker failed: " + (event.message || "an unknown error");
        port.postMessage({ type: "news", json: JSON.stringify({ type: "failed", why }) });
      };
      matchWorker.postMessage({
        wasm: files.matchWasm,
        match: { start, doorbell, control: controlRing, rings },
      });
    }
  }

  addEventListener("message", (event) => {
    const message = event.data;
    if (!message || message.type !== "botplay-match-host" || !event.ports[0]) return;
    if (event.source !== self.parent && event.source !== self) return;
    serve(event.ports[0]);
  });
})();

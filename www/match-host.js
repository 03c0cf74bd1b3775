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
// with {type: "hello", isolated, coi, shared, io} (isolated: shared memory works here; coi:
// crossOriginIsolated; shared: the SharedArrayBuffer constructor exists; io: a service worker
// controls this document, to pass bots their input where there is no shared memory), then
// serves one match on that port:
//   page -> host  {type: "start", start, seats: [{kind, code}], files}
//                   start: the JSON the match worker reads (src/match_host/mod.rs HostStart);
//                   kind: "javascript", "typescript", "python", "builtin" or "human" (any
//                   kind but the last two runs in a bot worker); files: {matchJs, matchWasm,
//                   runtime, languages}: matchJs and matchWasm are the page's own glue (as a
//                   classic script) and module (a Blob of its bytes), on which the match worker runs; languages holding what a language's bots need, sent
//                   to each of them (python: Pyodide's files {name: Blob}; typescript:
//                   Sucrase's text; wasm: the text of its worker, www/bot-channel.js then
//                   www/wasm-bot-worker.js, which runs instead of the runtime), only when
//                   such a bot plays
//                   mode: "messages" where there is no shared memory (below)
//                 {type: "stop"}, {type: "human", seat, lines}, {type: "end"},
//                 {type: "pictures", first, count} (frames the page shows without their pictures),
//                 {type: "over"} (the page heard the match end: the bots' workers, the bots' input
//                 and the heartbeat end; the match worker stays, to answer "pictures" from the
//                 frames it kept, until "end")
//   host -> page  {type: "news", json} (src/match_host/mod.rs HostNews), and every 100 ms
//                 {type: "alive", running} (a bit per seat computing now)
// Outside any match, the page may send a window message {type: "botplay-python-ready", runtime,
// python} (the runtime's text, Pyodide's files): a Python worker loads Pyodide ahead of the next
// match, whose first Python seat takes it (below).
// Workers are started from blob: URLs of the texts the page sent (a sandboxed frame has no
// origin of its own to load them from). The match worker gets the shared memory; the bots'
// workers get their two rings and the doorbell, and nothing else: they have no channel to this
// script, and their errors are written into the control ring here.
//
// Without shared memory (WebKitGTK as shipped; a page that is not cross-origin isolated) the page
// hosts the match itself and asks for mode "messages": each bot's worker (from a blob: URL made
// in the page, which the page's service worker controls as it controls the page: WebKitGTK left
// the second of two workers started from js-bot-worker.js's own URL uncontrolled) posts its
// records to the match worker on a MessagePort of its own; the match worker sends each bot's
// input to the service worker (www/coi-sw.js) on another port, with a token per bot, and the
// bot's readline() fetches it with a synchronous request to botplay-io/<token>, which the
// service worker answers when input is there. Built-in bots need none of it.
"use strict";

(() => {
  const RING_BYTES = 16 + (1 << 20);
  const KIND = { stop: 20, human: 21, workerError: 22, pictures: 23 };
  const encoder = new TextEncoder();

  const blobUrl = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  // A seat whose bot runs in a worker of its own (code, not a built-in bot or a person).
  const inWorker = (seat) => seat.kind !== "builtin" && seat.kind !== "human";
  // Each seat's worker script: the runtime, or a WebAssembly bot's own.
  const workerScripts = (files) => {
    const runtime = blobUrl(files.runtime);
    const wasm = files.languages.wasm ? blobUrl(files.languages.wasm) : null;
    return (seat) => (seat.kind === "wasm" ? wasm : runtime);
  };

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

  // The service worker that controls this document (the page's; a sandboxed frame has none),
  // waiting a little for one being installed.
  async function serviceWorker() {
    let container = null;
    try {
      container = self.navigator && navigator.serviceWorker;
    } catch (_) {
      return null;
    }
    if (!container) return null;
    if (container.controller) return container.controller;
    await Promise.race([
      new Promise((ok) => container.addEventListener("controllerchange", ok, { once: true })),
      new Promise((ok) => setTimeout(ok, 4000)),
    ]);
    return container.controller;
  }

  // Whether a worker started here can have shared memory and WebAssembly: a worker from a blob:
  // URL that compiles an empty module and answers with the SharedArrayBuffer it was sent. (In
  // WebKitGTK with SharedArrayBuffer turned on, the sandboxed frame has it, but its match worker
  // fails: the page then hosts the match itself.)
  function probe() {
    return new Promise((answer) => {
      let worker = null;
      const done = (works) => {
        clearTimeout(timer);
        worker?.terminate();
        answer(works);
      };
      const timer = setTimeout(() => done(false), 3000);
      try {
        worker = new Worker(
          blobUrl(`onmessage = (event) => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))
            .then(() => postMessage(event.data), () => postMessage(null));`),
        );
        worker.onmessage = (event) => done(event.data instanceof SharedArrayBuffer);
        worker.onerror = (event) => {
          event.preventDefault();
          done(false);
        };
        worker.postMessage(new SharedArrayBuffer(8));
      } catch (_) {
        done(false);
      }
    });
  }

  // The probe's answer, and the match worker's module compiled from the bytes the page sends,
  // once per document: a frame serves one match after another (the page keeps a frame whose
  // match ended well, src/host_frames.rs), and compiling the module (2.4 MB) took the machine's
  // cores at each match's start.
  let probed = null;
  let compiled = null;
  const compiledModule = (blob) =>
    (compiled ??= blob.arrayBuffer().then((bytes) => WebAssembly.compile(bytes)).catch((error) => {
      compiled = null;
      throw error;
    }));

  async function serve(port) {
    const coi = self.crossOriginIsolated === true;
    const shared = typeof SharedArrayBuffer === "function";
    const isolated = coi && shared && (await (probed ??= probe()));
    let io = false;
    try {
      // (A sandboxed frame may throw here: it has no origin to register a worker for.)
      io = Boolean(self.isSecureContext && self.navigator && navigator.serviceWorker);
    } catch (_) {
      io = false;
    }
    port.postMessage({ type: "hello", isolated, coi, shared, io });
    const bots = [];
    let matchWorker = null;
    let started = false;
    // The heartbeat, from the hello on (the page may take a while to send the match's files):
    // which seats compute now, as the match worker says (in shared memory, or in messages).
    let readRunning = () => 0;
    let heartbeat = setInterval(() => port.postMessage({ type: "alive", running: readRunning() }), 100);
    // The match is over: everything goes but the match worker, which keeps its frames.
    const over = () => {
      clearInterval(heartbeat);
      heartbeat = 0;
      started = true;
      endIo();
      for (const worker of bots) worker?.terminate();
      bots.length = 0;
    };
    const end = () => {
      over();
      matchWorker?.terminate();
      matchWorker = null;
    };
    port.onmessage = (event) => {
      const message = event.data;
      if (!message || typeof message !== "object") return;
      if (message.type === "start" && message.mode === "messages" && !started) {
        started = true;
        startOnMessages(message).catch((error) => {
          const why = "the match could not start: " + (error && error.message ? error.message : error);
          port.postMessage({ type: "news", json: JSON.stringify({ type: "failed", why }) });
        });
      } else if (message.type === "start" && isolated && !started) {
        started = true;
        start(message).catch((error) => {
          const why = "the match could not start: " + (error && error.message ? error.message : error);
          port.postMessage({ type: "news", json: JSON.stringify({ type: "failed", why }) });
        });
      }
      else if (message.type === "stop") control?.(KIND.stop, 0, "");
      else if (message.type === "human") {
        control?.(KIND.human, Number(message.seat) | 0, String(message.lines));
      } else if (message.type === "pictures") {
        control?.(KIND.pictures, Number(message.first) >>> 0, String(Number(message.count) >>> 0));
      } else if (message.type === "over") over();
      else if (message.type === "end") end();
    };
    let control = null;
    let running = 0;
    let tokens = [];
    let ioWorker = null;
    const endIo = () => {
      if (ioWorker && tokens.length) ioWorker.postMessage({ type: "botplay-io-end", tokens });
      tokens = [];
    };

    // The match worker runs on the page's own module (src/match_worker.rs): a worker made of the
    // page's wasm-bindgen glue (made a classic script by the page: a module worker from a blob:
    // URL fails in this frame's opaque origin), whose initSync instantiates the module and returns
    // its exports, followed by this start, which takes the module compiled here (or compiles the
    // Blob the page sent, where a compiled module cannot be posted).
    const starter = `
      self.onmessage = (event) => {
        self.onmessage = null;
        const { wasm, match } = event.data;
        const compiled = wasm instanceof WebAssembly.Module
          ? Promise.resolve(wasm)
          : wasm.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
        compiled
          .then((module) => initSync({ module }).botplayMatchWorker())
          .then(
            () => self.onmessage(new MessageEvent("message", { data: match })),
            (error) => postMessage(JSON.stringify({ type: "failed", why: "the match worker could not start: " + error })),
          );
      };`;

    function startMatchWorker(files) {
      const script = blobUrl(files.matchJs + "\n" + starter);
      matchWorker = new Worker(script, { name: "match" });
      matchWorker.onmessage = (event) => {
        const data = event.data;
        if (typeof data === "string") port.postMessage({ type: "news", json: data });
        else if (typeof data === "number") {
          bots[data]?.terminate();
          bots[data] = null;
        } else if (data && typeof data.running === "number") running = data.running;
      };
      matchWorker.onerror = (event) => {
        event.preventDefault();
        const why = "the match worker failed: " + (event.message || "an unknown error");
        port.postMessage({ type: "news", json: JSON.stringify({ type: "failed", why }) });
      };
    }

    // A match without shared memory: records and commands in messages, input through the
    // service worker.
    async function startOnMessages({ start, seats, files }) {
      readRunning = () => running;
      const code = seats.some(inWorker);
      let io = null;
      if (code) {
        ioWorker = await serviceWorker();
        if (!ioWorker) {
          const why =
            "bots written in the editor cannot run in this browser: it gives the page no " +
            "SharedArrayBuffer and no service worker runs here to pass them their input (a " +
            "reload may start one). Built-in bots, replays, links, the rules and the viewer " +
            "still work.";
          port.postMessage({ type: "news", json: JSON.stringify({ type: "failed", why }) });
          return;
        }
        io = new MessageChannel();
        tokens = seats.map((seat) => (inWorker(seat) ? crypto.randomUUID() : null));
        ioWorker.postMessage({ type: "botplay-io", tokens: tokens.filter(Boolean) }, [io.port1]);
      }
      if (!heartbeat) return; // ended meanwhile
      startMatchWorker(files);
      control = (kind, seat, text) => matchWorker?.postMessage({ control: kind, seat, text });
      const script = workerScripts(files);
      const ports = seats.map((seat, index) => {
        if (!inWorker(seat)) return null;
        const channel = new MessageChannel();
        const worker = botWorker(seat, script, index);
        worker.onerror = (event) => {
          event.preventDefault();
          const text = event.message || "the bot's worker failed to load or stopped with an error";
          control(KIND.workerError, index, text);
        };
        bots[index] = worker;
        worker.postMessage(
          {
            type: "start",
            language: seat.kind,
            code: seat.code,
            port: channel.port1,
            io: new URL("botplay-io/" + tokens[index], document.baseURI).href,
            ...seatFiles(seat, files),
          },
          [channel.port1],
        );
        return channel.port2;
      });
      const transfer = ports.filter(Boolean);
      if (io) transfer.push(io.port2);
      startMatch(files, { start, mode: "messages", ports, io: io ? io.port2 : null, tokens }, transfer);
    }

    async function start({ start, seats, files }) {
      // Python's snapshot first (above): each Python seat then starts from it.
      if (seats.some((seat) => seat.kind === "python")) {
        await makePythonSnapshot(files.runtime, files.languages.python);
        if (!heartbeat) return; // ended meanwhile
      }
      const doorbell = new SharedArrayBuffer(16);
      const bell = new Int32Array(doorbell);
      const controlRing = new SharedArrayBuffer(RING_BYTES);
      control = controlWriter(controlRing, bell);
      const rings = seats.map((seat) =>
        inWorker(seat) ? [new SharedArrayBuffer(RING_BYTES), new SharedArrayBuffer(RING_BYTES)] : null,
      );
      readRunning = () => Atomics.load(bell, 1);
      ioWorker = null;
      const script = workerScripts(files);
      seats.forEach((seat, index) => {
        if (!rings[index]) return;
        const worker = botWorker(seat, script, index);
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
          ...seatFiles(seat, files),
        });
      });
      startMatchWorker(files);
      startMatch(files, { start, doorbell, control: controlRing, rings }, []);
    }

    // Sends the match worker its module, compiled (once per document), and the match.
    function startMatch(files, match, transfer) {
      const send = (wasm) => matchWorker?.postMessage({ wasm, match }, transfer);
      compiledModule(files.matchWasm).then(
        (module) => {
          try {
            send(module);
          } catch (_) {
            send(files.matchWasm); // a compiled module that cannot be posted here: the bytes
          }
        },
        () => send(files.matchWasm),
      );
    }
  }

  // A Python bot's worker started ahead of its match, while no match plays (the page asks with
  // {type: "botplay-python-ready", runtime, python}: src/python_ready.rs): Pyodide loads in it
  // with no channel yet, and the next match's first Python seat takes it. Each worker serves one
  // match and ends with it: every match has a fresh interpreter.
  //
  // Python's interpreter starts from a snapshot of its memory, made once per document: a worker
  // of its own (the snapshot maker) loads Pyodide, makes the snapshot as soon as the interpreter
  // has started, posts it here with the module it compiled, and ends. It never has a bot's code,
  // and Pyodide's snapshot mode changes how `js` behaves, so it never plays. Every Python bot's
  // worker (the ready one, or a seat's own) then starts from a copy of that memory: a fresh
  // interpreter, the state Python had before any bot ran, without starting Python again and
  // without compiling Pyodide's module (9.6 MB) again (Pyodide's `_loadSnapshot`: about a tenth
  // of the time; a class of Python bots plays many matches). A match with Python bots waits for
  // the snapshot (start, below). Where the page hosts the match itself (no shared memory), no
  // snapshot is made and each worker loads Pyodide as before (src/python_ready.rs).
  let readyPython = null;
  let pythonSnapshot = null; // {snapshot: Blob, module: WebAssembly.Module}
  let snapshotMade = null; // a promise, settled once the maker has answered (or failed)
  function makePythonSnapshot(runtime, python) {
    if (snapshotMade || typeof runtime !== "string" || !python) return snapshotMade;
    const maker = new Worker(blobUrl(runtime), { name: "Python's snapshot" });
    snapshotMade = new Promise((done) => {
      const finish = () => {
        maker.terminate();
        done();
      };
      maker.onerror = (event) => {
        event.preventDefault();
        finish();
      };
      maker.onmessage = (event) => {
        const { snapshot, module } = event.data ?? {};
        if (snapshot instanceof Blob && module instanceof WebAssembly.Module) pythonSnapshot = { snapshot, module };
        finish();
      };
    });
    maker.postMessage({ type: "prepare", language: "python", files: python, makeSnapshot: true });
    return snapshotMade;
  }
  async function preparePython({ runtime, python }) {
    await makePythonSnapshot(runtime, python);
    if (readyPython || typeof runtime !== "string" || !python) return;
    const worker = new Worker(blobUrl(runtime), { name: "bot (Python, ready)" });
    worker.onerror = (event) => {
      event.preventDefault();
      if (readyPython === worker) readyPython = null;
      worker.terminate();
    };
    worker.postMessage({ type: "prepare", language: "python", files: python, ...pythonSnapshot });
    readyPython = worker;
  }
  // A seat's worker: the ready Python worker for a Python seat, if there is one, or a new one.
  function botWorker(seat, script, index) {
    if (seat.kind === "python" && readyPython) {
      const worker = readyPython;
      readyPython = null;
      return worker;
    }
    return new Worker(script(seat), { name: `bot ${index + 1}` });
  }
  // What a seat's worker is sent with its start: its language's files, and for Python the
  // snapshot and its module, once there are.
  const seatFiles = (seat, files) => ({
    files: files.languages[seat.kind] ?? null,
    ...(seat.kind === "python" ? pythonSnapshot : null),
  });

  addEventListener("message", (event) => {
    const message = event.data;
    if (event.source !== self.parent && event.source !== self) return;
    if (message && message.type === "botplay-python-ready") return void preparePython(message);
    if (!message || message.type !== "botplay-match-host" || !event.ports[0]) return;
    serve(event.ports[0]);
  });
})();

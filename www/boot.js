// Starts the app. Trunk writes the hashed names of the app's files into this script tag's data
// attributes (see `pattern_script` in Trunk.toml), so the page needs no inline script.
//
// Every visit registers botplay's service worker (coi-sw.js), which keeps a copy of the site for
// offline use and, on a static host that cannot send the cross-origin isolation headers, adds
// them. On such a host the first visit waits for the worker and reloads once; if isolation still
// fails (service workers disabled), the page says so plainly instead of reloading again. On a
// host that sends the headers itself the app starts at once and the worker is registered beside
// it.
//
// The page shows whether it can work offline (src/app/offline_status.rs): this script keeps
// `window.botplayOffline` up to date ({state, python}) and fires a `botplay-offline` event on
// `window` at each change. States: "unsupported" (no service worker here), "saving" (the copy is
// being made), "ready" (what a match needs is cached; the rest follows 30 s after the start),
// "offline" (the page came from the cache, or the browser is offline), "failed" (the worker
// could not be installed). `python`: Pyodide is cached too.
const tag = document.querySelector("script[data-app-js]");
const workerUrl = new URL("coi-sw.js", tag.src).href;
const supported = "serviceWorker" in navigator && self.isSecureContext;
/** How long after the page starts the files kept for later are cached. */
const CACHE_LATER_MS = 30_000;

function publish(status) {
  const previous = self.botplayOffline;
  if (previous && previous.state === status.state && previous.python === status.python) return;
  self.botplayOffline = status;
  dispatchEvent(new CustomEvent("botplay-offline", { detail: status }));
}

/** Asks the service worker what it has cached; null when it does not answer within 5 s. */
function ask(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 5000);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.postMessage({ type: "status" }, [channel.port2]);
  });
}

async function refresh() {
  const registration = await navigator.serviceWorker.ready;
  const worker = navigator.serviceWorker.controller ?? registration.active;
  const status = worker && (await ask(worker));
  if (!status) return;
  const offline = status.fromCache || !navigator.onLine;
  const state = status.app ? (offline ? "offline" : "ready") : offline ? "offline" : "saving";
  publish({ state, python: status.pyodide });
}

async function keepOfflineCopy() {
  if (!supported) return publish({ state: "unsupported", python: false });
  // A page the worker does not serve yet is being saved; one it serves is asked below.
  if (!navigator.serviceWorker.controller) publish({ state: "saving", python: false });
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data?.type === "botplay-offline-changed") refresh();
  });
  navigator.serviceWorker.addEventListener("controllerchange", refresh);
  addEventListener("online", refresh);
  addEventListener("offline", refresh);
  try {
    await navigator.serviceWorker.register(workerUrl);
  } catch (error) {
    // Offline, an already registered worker still serves the page.
    if (!navigator.serviceWorker.controller) {
      console.warn("botplay: the service worker could not be registered:", error);
      return publish({ state: "failed", python: false });
    }
  }
  await refresh();
  // The files only some visits use (the help's pictures, the TypeScript and WebAssembly
  // runtimes, the zip and QR makers) are cached once the page has been idle a while: after the
  // first match, as a rule, whose files come first.
  setTimeout(() => {
    const cacheLater = () =>
      navigator.serviceWorker.ready.then((r) => r.active?.postMessage({ type: "botplay-cache-later" }));
    if (self.requestIdleCallback) requestIdleCallback(cacheLater, { timeout: 10_000 });
    else cacheLater();
  }, CACHE_LATER_MS);
}

async function isolate() {
  if (self.crossOriginIsolated) {
    sessionStorage.removeItem("botplay-isolation-reload");
    return false;
  }
  if (!supported) return false;
  try {
    await navigator.serviceWorker.register(workerUrl);
    if (sessionStorage.getItem("botplay-isolation-reload") === "1") return false;
    sessionStorage.setItem("botplay-isolation-reload", "1");
    await navigator.serviceWorker.ready;
    location.reload();
    return true;
  } catch (error) {
    console.warn("botplay: the isolation service worker could not be registered:", error);
    return false;
  }
}

if (!(await isolate())) {
  keepOfflineCopy().catch((error) => console.warn("botplay: offline copy:", error));
  const { default: init } = await import(tag.dataset.appJs);
  // The match worker runs on this same module (src/match_worker.rs): the page keeps its bytes,
  // fetched once, as a Blob for the match host (src/runner.rs sends it with each match: a
  // handle, not a copy), and compiles the other copy as it arrives.
  const response = await fetch(tag.dataset.appWasm);
  self.botplayAppWasm = response.ok ? response.clone().blob() : null;
  await init({ module_or_path: response });
}

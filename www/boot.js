// Starts the app. Trunk writes the hashed names of the app's files into this script tag's data
// attributes (see `pattern_script` in Trunk.toml), so the page needs no inline script.
//
// On a static host that cannot send the cross-origin isolation headers, a service worker of ours
// (coi-sw.js) adds them: the first visit registers it and reloads once; if isolation still fails
// (service workers disabled), the page says so plainly instead of reloading again.
const tag = document.querySelector("script[data-app-js]");

async function isolate() {
  if (self.crossOriginIsolated) {
    sessionStorage.removeItem("botplay-isolation-reload");
    return false;
  }
  if (!("serviceWorker" in navigator) || !self.isSecureContext) return false;
  try {
    await navigator.serviceWorker.register(new URL("coi-sw.js", tag.src).href);
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
  const { default: init } = await import(tag.dataset.appJs);
  await init({ module_or_path: tag.dataset.appWasm });
}

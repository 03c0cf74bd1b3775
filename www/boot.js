// Starts the app. Trunk writes the hashed names of the app's files into this script tag's data
// attributes (see `pattern_script` in Trunk.toml), so the page needs no inline script.
const tag = document.querySelector("script[data-app-js]");
const { default: init } = await import(tag.dataset.appJs);
await init({ module_or_path: tag.dataset.appWasm });

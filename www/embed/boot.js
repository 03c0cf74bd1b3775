// Starts the embed view (embed.html, which www/embed/page.mjs writes from the built index.html):
// the app alone, without what www/boot.js does for the playground. The embed view runs no bot,
// so it needs no cross-origin isolation (nor a reload to get it), and it registers no service
// worker: framed by another site, the browser gives it storage apart for that site, where a copy
// of the whole site for offline use would be wasted.
const tag = document.querySelector("script[data-app-js]");
const { default: init } = await import(tag.dataset.appJs);
await init({ module_or_path: tag.dataset.appWasm });

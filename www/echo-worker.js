// The floor of the page's message path, for the measure harness (`?measure`, src/app/measure.rs):
// a worker that sends every message straight back, so that the page can time a bare
// postMessage round trip. No bot runs here; the normal page never starts it.
"use strict";

self.onmessage = (event) => self.postMessage(event.data);
